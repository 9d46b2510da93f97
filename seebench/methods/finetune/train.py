"""The training loop: SELU's protocol (§IV-C) with dynamic padding and length grouping.

One optimiser step consumes ``effective_batch`` examples (split over processes when running
under DeepSpeed), cut into micro-batches of ``per_device_batch`` with gradient accumulation;
when a micro-batch runs out of memory the per-device batch is halved and the step is redone.
The validation metric (the task's primary metric) is computed every ``eval_every`` steps;
training stops after ``patience`` evaluations without improvement and the best weights are
restored before predicting the test split.
"""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.data.dataset import Sample, TaskData
from seebench.methods.finetune.arch import (
    DECODER,
    ENCODER,
    ENCODER_DECODER,
    attention_implementation,
    family_of,
    load_backbone,
    load_tokenizer,
    max_length,
    read_config,
)
from seebench.methods.finetune.config import TrainConfig
from seebench.methods.finetune.encode import Encoded, TaskCodec, length_grouped_batches
from seebench.methods.finetune.threads import configure_threads, passive_waits
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import LABEL, LABEL_SET, MASKED_WORDS, NUMBER, TAG_SEQUENCE

log = logging.getLogger("seebench.methods.finetune")
passive_waits()  # before PyTorch is imported (see threads.py)


def not_applicable(target_kind: str | None, family: str) -> str | None:
    """SELU §IV-B: NER needs token states (not decoder-only), MLM an encoder-only model; tasks
    whose targets no head can learn are not applicable."""
    if target_kind not in (LABEL, LABEL_SET, NUMBER, TAG_SEQUENCE, MASKED_WORDS):
        return f"fine-tuning has no head for targets of kind {target_kind!r}"
    if target_kind == TAG_SEQUENCE and family == DECODER:
        return (
            "NER is token classification; decoder-only models have no bidirectional token "
            "states for it (SELU §IV-B runs NER on encoder-only and encoder-decoder models)"
        )
    if target_kind == MASKED_WORDS and family != "encoder":
        return (
            f"MLM needs an encoder-only model with a masked-LM objective; this model is "
            f"{family} (SELU §IV-B)"
        )
    return None


def split_validation(
    data: TaskData, fraction: float, seed: int
) -> tuple[list[Sample], list[Sample], bool]:
    """Train and validation samples; carves ``fraction`` of train when there is no validation."""
    if data.validation:
        return list(data.train), list(data.validation), False
    train = list(data.train)
    random.Random(seed).shuffle(train)
    n_val = max(1, round(len(train) * fraction)) if len(train) > 1 else 0
    return train[n_val:], train[:n_val], True


def build_model(
    target_kind: str | None, directory: Path, family: str, n_outputs: int, dropout: float
):
    from seebench.methods.finetune.heads import MaskedLMModel, SequenceHeadModel, TokenHeadModel

    attn = attention_implementation()
    if target_kind == MASKED_WORDS:
        backbone, info = load_backbone(directory, "mlm", attn)
        return MaskedLMModel(backbone), info
    backbone, info = load_backbone(directory, "base", attn)
    cls = TokenHeadModel if target_kind == TAG_SEQUENCE else SequenceHeadModel
    return cls(backbone, family, n_outputs, dropout), info


def predict(model, codec: TaskCodec, items: list[Encoded], batch_size: int, device, bf16: bool):
    """(prediction, confidence) per item, in order; batches sorted by length."""
    import torch

    order = sorted(range(len(items)), key=lambda i: codec.length(items[i]))
    results: list[Any] = [None] * len(items)
    was_training = model.training
    model.eval()
    with torch.no_grad(), torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
        for start in range(0, len(order), batch_size):
            idx = order[start : start + batch_size]
            chunk = [items[i] for i in idx]
            batch = codec.collate(chunk, training=False)
            logits = model(batch["input_ids"].to(device), batch["attention_mask"].to(device))
            for i, value in zip(idx, codec.decode(logits, chunk, batch), strict=True):
                results[i] = value
    model.train(was_training)
    return results


def _metric(task: TaskSpec, entry: Any):
    """The selection metric over (samples, predictions) and whether higher is better
    (``entry``: the registry's :class:`~seebench.registry.MetricEntry` of the primary metric)."""
    func = entry.load()
    kwargs = {"labels": task.label_names} if task.labels else {}

    def compute(samples: list[Sample], predictions: list[Any]) -> float:
        return float(func([s.target for s in samples], [p for p, _ in predictions], **kwargs))

    return compute, entry.higher_is_better


def _optimizer(model, lr: float, weight_decay: float):
    import torch

    decay: list[torch.nn.Parameter] = []
    no_decay: list[torch.nn.Parameter] = []
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        (no_decay if param.ndim < 2 or "norm" in name.lower() else decay).append(param)
    groups = [
        {"params": decay, "weight_decay": weight_decay},
        {"params": no_decay, "weight_decay": 0.0},
    ]
    try:  # one fused kernel per step (CPU and CUDA) instead of a loop over the parameters
        return torch.optim.AdamW(groups, lr=lr, fused=True)
    except (RuntimeError, TypeError, ValueError):
        return torch.optim.AdamW(groups, lr=lr)


def _bf16_supported(device) -> bool:
    import torch

    return device.type == "cuda" and torch.cuda.is_bf16_supported()


def _is_oom(exc: BaseException) -> bool:
    import torch

    return isinstance(exc, torch.OutOfMemoryError) or "out of memory" in str(exc).lower()


@dataclass
class _Prepared:
    """The data side of one fine-tuning run: the model's family and tokenizer, the splits and
    their encodings, the resolved plan and where it runs."""

    config: dict[str, Any]
    family: str
    limit: int
    train: list[Sample]
    validation: list[Sample]
    carved: bool
    codec: TaskCodec
    encoded: tuple[list[Encoded], list[Encoded], list[Encoded]]  # train, validation, test
    plan: dict[str, Any]
    device: Any
    bf16: bool


@dataclass
class _Model:
    """The model side: the network, what loading it did, and the choices made for it."""

    net: Any
    load_info: Any
    lora_info: Any
    vocabulary: dict[str, int] | None
    packed: bool


@dataclass
class _Progress:
    """What the training loop has done so far (the best weights included)."""

    micro: int
    history: list[dict[str, Any]] = field(default_factory=list)
    best_value: Any = None
    best_step: int = 0
    best_state: Any = None
    bad_evals: int = 0
    step: int = 0
    examples: int = 0
    train_seconds: float = 0.0
    train_cpu_seconds: float = 0.0
    setup_seconds: float = 0.0
    setup_cpu_seconds: float = 0.0
    oom_reductions: int = 0
    epoch: int = 0
    running_loss: float = 0.0
    running_units: int = 0
    stop: bool = False


def finetune(
    task: TaskSpec,
    data: TaskData,
    model_dir: Path,
    seed: int,
    options: dict[str, Any],
    work_dir: Path | None = None,
    dist: Any | None = None,
    *,
    metric: Any,
) -> tuple[list[Any], dict[str, Any]]:
    """Train on ``data.train``, select on validation, predict ``data.test``.

    ``metric`` is the registry entry of the task's primary metric (selection on validation).

    ``dist`` is a :class:`seebench.methods.finetune.distributed.DeepSpeedContext` when running under
    DeepSpeed, else ``None``. Returns ``[(prediction, confidence)...]`` and the ``info`` dict.
    """
    import torch

    started, cpu_started = time.perf_counter(), time.process_time()
    cfg = TrainConfig.from_options(options)
    threads = configure_threads(cfg.threads)
    rank, world = (dist.rank, dist.world_size) if dist else (0, 1)
    random.seed(seed)
    torch.manual_seed(seed)
    prepared = _prepare(task, data, model_dir, seed, cfg, world)
    model = _build(task, prepared, model_dir, cfg, dist)
    clock = (started, cpu_started)
    progress = _train(task, prepared, model, cfg, dist, seed, metric, work_dir, clock)
    if progress.best_state is not None:
        model.net.load_state_dict(progress.best_state)
    enc_test = prepared.encoded[2]
    predictions = (
        predict(model.net, prepared.codec, enc_test, cfg.eval_batch, prepared.device, prepared.bf16)
        if rank == 0
        else []
    )
    return predictions, {**_info(task, prepared, model, progress, dist), "threads": threads}


def _prepare(
    task: TaskSpec, data: TaskData, model_dir: Path, seed: int, cfg: TrainConfig, world: int
) -> _Prepared:
    """Read the model's configuration and tokenizer, split and encode the data, resolve the
    plan (a one-line error when fine-tuning cannot learn this task with this model)."""
    import torch

    config = read_config(model_dir)
    family = cfg.architecture or family_of(config)
    reason = not_applicable(task.target_kind, family)
    if reason:
        from seebench.errors import SeebenchError

        raise SeebenchError(reason)
    tokenizer = load_tokenizer(model_dir, family)
    limit = max_length(tokenizer, config, cfg.max_length)
    train, validation, carved = split_validation(data, cfg.validation_fraction, seed)
    if cfg.max_validation and len(validation) > cfg.max_validation:
        validation = random.Random(seed).sample(validation, int(cfg.max_validation))
    codec = TaskCodec(task, tokenizer, limit, train, cfg.mlm_probability)
    enc_train, enc_val = codec.encode(train), codec.encode(validation)
    enc_test = codec.encode(data.test, with_labels=False)
    plan = cfg.resolve(task.target_kind, len(train), world)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    bf16 = cfg.bf16 == "true" or (cfg.bf16 == "auto" and _bf16_supported(device))
    return _Prepared(
        config, family, limit, train, validation, carved, codec,
        (enc_train, enc_val, enc_test), plan, device, bf16,
    )  # fmt: skip


def _build(
    task: TaskSpec, prepared: _Prepared, model_dir: Path, cfg: TrainConfig, dist: Any | None
) -> _Model:
    """The network with its head (LoRA adapters, a compacted vocabulary and packed batches
    where they apply), on its device and in training mode."""
    codec, family = prepared.codec, prepared.family
    model, load_info = build_model(
        task.target_kind, model_dir, family, codec.n_outputs, cfg.dropout
    )
    if family == DECODER and getattr(model.backbone.config, "pad_token_id", None) is None:
        model.backbone.config.pad_token_id = codec.tokenizer.pad_token_id
    lora_info = None
    if cfg.peft == "lora":
        from seebench.methods.finetune.heads import apply_lora

        lora_info = apply_lora(
            model, cfg.lora_r, cfg.lora_alpha, cfg.lora_dropout, cfg.lora_targets
        )
    vocabulary = None
    if (
        cfg.compact_vocabulary
        and cfg.peft is None
        and family in (ENCODER, DECODER)
        and codec.kind in ("sequence", "token")
    ):
        from seebench.methods.finetune.packed import compact_vocabulary

        groups = list(prepared.encoded)
        full = model.backbone.get_input_embeddings().num_embeddings
        keep = compact_vocabulary(
            model.backbone, {t for g in groups for e in g for t in e.input_ids}, codec.pad_id
        )
        codec.renumber(groups, keep)
        vocabulary = {"kept": len(keep), "of": full}
    packed = cfg.packing and dist is None and cfg.peft is None and family == ENCODER
    if packed and codec.kind in ("sequence", "token"):
        from seebench.methods.finetune.packed import supports_packing

        packed = supports_packing(model.backbone)
    else:
        packed = False
    model.to(prepared.device)
    model.train()
    return _Model(model, load_info, lora_info, vocabulary, packed)


def _train(
    task: TaskSpec,
    prepared: _Prepared,
    model: _Model,
    cfg: TrainConfig,
    dist: Any | None,
    seed: int,
    metric: Any,
    work_dir: Path | None,
    clock: tuple[float, float],
) -> _Progress:
    """The training loop: optimiser steps over length-grouped batches, the validation metric
    every ``eval_every`` steps, early stopping after ``patience`` evaluations without gain.
    ``clock``: the wall and CPU clocks when the run started (its start-up is recorded)."""
    from transformers import get_linear_schedule_with_warmup

    plan, rank, world = prepared.plan, (dist.rank if dist else 0), (dist.world_size if dist else 1)
    optimizer = _optimizer(model.net, plan["learning_rate"], cfg.weight_decay)
    scheduler = get_linear_schedule_with_warmup(
        optimizer, plan["warmup_steps"], plan["total_steps"]
    )
    engine = None
    if dist:
        engine = dist.initialize(model.net, optimizer, scheduler, plan, prepared.bf16)
    selection = _metric(task, metric)
    rng = random.Random(seed)
    lengths = [prepared.codec.length(e) for e in prepared.encoded[0]]
    progress = _Progress(micro=plan["per_device_batch"])
    log_path = (work_dir / "train_log.jsonl") if work_dir and rank == 0 else None
    if log_path:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        log_path.write_text("")
    optimiser = (optimizer, scheduler, engine)
    progress.setup_seconds = time.perf_counter() - clock[0]
    progress.setup_cpu_seconds = time.process_time() - clock[1]
    while not progress.stop and progress.step < plan["total_steps"]:
        progress.epoch += 1
        for batch_ids in length_grouped_batches(
            lengths, cfg.effective_batch, rng, cfg.group_by_length
        ):
            _optimiser_step(prepared, model, cfg, optimiser, batch_ids[rank::world], rng, progress)
            progress.examples += len(batch_ids)
            progress.step += 1
            if progress.step % plan["eval_every"] == 0 or progress.step == plan["total_steps"]:
                _evaluate(prepared, model, cfg, selection, progress, log_path, clock[0])
            if progress.stop or progress.step >= plan["total_steps"]:
                break
    return progress


def _optimiser_step(
    prepared: _Prepared,
    model: _Model,
    cfg: TrainConfig,
    optimiser: tuple[Any, Any, Any],
    local: list[int],
    rng: random.Random,
    progress: _Progress,
) -> None:
    """One optimiser step over ``local`` (this process's examples); a micro-batch that runs
    out of memory halves the per-device batch and the step is redone."""
    import torch

    optimizer, scheduler, engine = optimiser
    device = prepared.device
    tic, cpu_tic = time.perf_counter(), time.process_time()
    while True:
        try:
            loss_value, units = _step(
                model.net,
                engine,
                optimizer,
                prepared.codec,
                prepared.encoded[0],
                local,
                progress.micro,
                device,
                prepared.bf16,
                rng,
                cfg.pad_to_multiple_of,
                model.packed,
            )
            break
        except RuntimeError as exc:
            if engine is not None or not _is_oom(exc) or progress.micro == 1:
                raise
            optimizer.zero_grad(set_to_none=True)
            if device.type == "cuda":
                torch.cuda.empty_cache()
            progress.micro, progress.oom_reductions = (
                max(1, progress.micro // 2),
                progress.oom_reductions + 1,
            )
            log.warning("out of memory: per-device batch reduced to %d", progress.micro)
    if engine is None:
        torch.nn.utils.clip_grad_norm_(model.net.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad(set_to_none=True)
    progress.train_seconds += time.perf_counter() - tic
    progress.train_cpu_seconds += time.process_time() - cpu_tic
    progress.running_loss += loss_value
    progress.running_units += units


def _evaluate(
    prepared: _Prepared,
    model: _Model,
    cfg: TrainConfig,
    selection: tuple[Any, bool],
    progress: _Progress,
    log_path: Path | None,
    started: float,
) -> None:
    """The validation metric now: keep the best weights, log the step, decide to stop."""
    metric, higher = selection
    predicted = predict(
        model.net, prepared.codec, prepared.encoded[1], cfg.eval_batch, prepared.device,
        prepared.bf16,
    )  # fmt: skip
    value = metric(prepared.validation, predicted)
    best = progress.best_value
    if best is None or (value > best if higher else value < best):
        progress.best_value, progress.best_step, progress.bad_evals = value, progress.step, 0
        progress.best_state = {
            k: v.detach().to("cpu", copy=True) for k, v in model.net.state_dict().items()
        }
    else:
        progress.bad_evals += 1
    record = {
        "step": progress.step,
        "epoch": progress.epoch,
        "train_loss": progress.running_loss / max(1, progress.running_units),
        "validation": value,
        "elapsed_s": round(time.perf_counter() - started, 1),
    }
    progress.history.append(record)
    progress.running_loss, progress.running_units = 0.0, 0
    log.info("step %d/%d %s", progress.step, prepared.plan["total_steps"], record)
    if log_path:
        with log_path.open("a") as handle:
            handle.write(json.dumps(record) + "\n")
    if progress.bad_evals >= cfg.patience:
        progress.stop = True


def _info(
    task: TaskSpec, prepared: _Prepared, model: _Model, progress: _Progress, dist: Any | None
) -> dict[str, Any]:
    """What the run did, for the unit's result."""
    plan, codec = prepared.plan, prepared.codec
    seconds = progress.train_seconds
    info = {
        "architecture": prepared.family,
        "model_type": prepared.config.get("model_type"),
        "max_length": prepared.limit,
        "device": prepared.device.type,
        "bf16": prepared.bf16,
        "packed_batches": model.packed,
        "vocabulary": model.vocabulary,
        "train_config": {
            **plan,
            "per_device_batch_final": progress.micro,
            "oom_reductions": progress.oom_reductions,
        },
        "n_train": len(prepared.train),
        "n_validation": len(prepared.validation),
        "validation_carved_from_train": prepared.carved,
        "validation_metric": task.primary_metric,
        "best_validation": progress.best_value,
        "best_step": progress.best_step,
        "steps_run": progress.step,
        "epochs_run": round(progress.step / plan["steps_per_epoch"], 3),
        "early_stopped": progress.stop,
        "history": progress.history,
        "train_examples_per_s": round(progress.examples / seconds, 2) if seconds else None,
        "train_seconds": round(seconds, 1),
        "train_cpu_seconds": round(progress.train_cpu_seconds, 1),
        "setup_seconds": round(progress.setup_seconds, 2),
        "setup_cpu_seconds": round(progress.setup_cpu_seconds, 2),
        "model_loading": model.load_info,
        "labels": codec.label_names
        if task.target_kind in (TAG_SEQUENCE, LABEL, LABEL_SET)
        else None,
    }
    if task.target_kind == NUMBER:
        info["target_standardisation"] = {"mean": codec.mean, "std": codec.std}
    if model.lora_info:
        info["lora"] = model.lora_info
    if dist:
        info["deepspeed"] = dist.summary()
    return info


def _step(
    model,
    engine,
    optimizer,
    codec: TaskCodec,
    items: list[Encoded],
    local: list[int],
    micro: int,
    device,
    bf16: bool,
    rng: random.Random,
    pad_multiple: int | None,
    packed: bool = False,
) -> tuple[float, int]:
    """Forward/backward over one optimiser step's examples; returns (loss sum, units).

    ``packed``: padding-free micro-batches (:mod:`seebench.methods.finetune.packed`)."""
    import torch

    if engine is not None:  # DeepSpeed: a fixed number of micro-batches per step
        n_chunks = engine.gradient_accumulation_steps()
        chunks = [local[i::n_chunks] for i in range(n_chunks)]
        chunks = [c or local[:1] for c in chunks]
    else:
        chunks = [local[i : i + micro] for i in range(0, len(local), micro)]
    batches = [
        codec.collate_packed([items[i] for i in c])
        if packed
        else codec.collate(
            [items[i] for i in c], training=True, rng=rng, pad_to_multiple_of=pad_multiple
        )
        for c in chunks
    ]
    total_units = 0
    for batch in batches:
        labels = batch["labels"]
        total_units += int((labels != -100).sum()) if codec.kind != "sequence" else labels.size(0)
    total_units = max(1, total_units)
    loss_sum = 0.0
    runner = engine if engine is not None else model
    for batch in batches:
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=bf16):
            if packed:
                logits = model.forward_packed(batch)
            else:
                logits = runner(batch["input_ids"].to(device), batch["attention_mask"].to(device))
        loss, _ = codec.loss(logits, batch["labels"].to(device))
        loss_sum += float(loss.detach())
        if engine is not None:
            engine.backward(loss / total_units * len(batches))
            engine.step()
        else:
            (loss / total_units).backward()
    return loss_sum, total_units


__all__ = ["ENCODER_DECODER", "finetune", "not_applicable", "predict"]
