"""Every supported (architecture x task type) pair trains with falling loss; the rest are N/A."""

from __future__ import annotations

import pytest

from seebench.methods.base import RunContext
from seebench.methods.finetune.method import FinetuneMethod
from seebench.models.hf import local_model_ref
from seebench.plugin_manager import get_registry
from tests.methods.finetune.conftest import make_data, make_task

TYPES = ("binary", "multiclass", "multilabel", "regression", "ner", "mlm")
SUPPORTED = {"bert": TYPES, "t5": TYPES[:5], "gpt2": TYPES[:4]}
FAST = {
    "learning_rate": 3e-3,
    "effective_batch": 16,
    "max_steps": 8,
    "eval_fraction": 0.25,
    "patience": 100,
    "dropout": 0.0,
}
PAIRS = [(arch, task_type) for arch, types in SUPPORTED.items() for task_type in types]


def _run(models, arch, task_type, tmp_path, **options):
    task = make_task(task_type)
    data = make_data(task)
    ref = local_model_ref(f"hf:{arch}", models[arch])
    context = RunContext(
        task=task,
        data=data,
        model=ref,
        seed=1,
        options={**FAST, **options},
        work_dir=tmp_path / "work",
        registry=get_registry(),
    )
    method = FinetuneMethod()
    assert method.not_applicable(task, ref) is None
    return data, method.run(context)


def _check_shape(task_type, sample, prediction):
    if task_type in ("binary", "multiclass"):
        assert prediction in ("yes", "no", "a", "b", "c")
    elif task_type == "multilabel":
        assert isinstance(prediction, list) and set(prediction) <= {"a", "b"}
    elif task_type == "regression":
        assert 1.0 <= prediction <= 20.0  # clipped to value_range
    elif task_type == "ner":
        assert len(prediction) == len(sample.input)
    else:
        assert len(prediction) == len(sample.target) and all(isinstance(w, str) for w in prediction)


@pytest.mark.parametrize(("arch", "task_type"), PAIRS, ids=[f"{a}-{t}" for a, t in PAIRS])
def test_pair_trains_with_falling_loss(tiny_models, tmp_path, arch, task_type):
    data, output = _run(tiny_models, arch, task_type, tmp_path)
    losses = [h["train_loss"] for h in output.info["history"]]
    assert len(losses) == 4
    assert losses[-1] < losses[0], losses
    assert [p.sample_id for p in output.predictions] == [s.id for s in data.test]
    for sample, pred in zip(data.test, output.predictions, strict=True):
        assert pred.error is None
        _check_shape(task_type, sample, pred.prediction)
    info = output.info
    assert info["train_config"]["total_steps"] == 8 and info["train_config"]["eval_every"] == 2
    assert info["best_validation"] is not None and info["validation_metric"]


@pytest.mark.parametrize(("arch", "task_type"), [("gpt2", "ner"), ("gpt2", "mlm"), ("t5", "mlm")])
def test_unsupported_pairs_are_not_applicable(tiny_models, arch, task_type):
    reason = FinetuneMethod().not_applicable(
        make_task(task_type), local_model_ref("hf:x", tiny_models[arch])
    )
    assert reason and ("NER" in reason or "MLM" in reason)


def test_model_without_path_is_not_applicable():
    from seebench.models import ModelRef

    reason = FinetuneMethod().not_applicable(
        make_task("binary"), ModelRef("majority", "majority", "baseline")
    )
    assert "local path" in reason


def test_lora_trains_adapters_only(tiny_models, tmp_path):
    _, output = _run(
        tiny_models,
        "bert",
        "binary",
        tmp_path,
        peft="lora",
        lora_r=4,
        lora_alpha=8,
        learning_rate=2e-2,
    )
    lora = output.info["lora"]
    assert lora["lora_targets"] == ["query", "value"]
    assert lora["trainable_parameters"] < lora["total_parameters"] / 2
    losses = [h["train_loss"] for h in output.info["history"]]
    assert losses[-1] < losses[0]


def test_out_of_memory_halves_the_per_device_batch(tiny_models, tmp_path, monkeypatch):
    from seebench.methods.finetune import heads

    original = heads.SequenceHeadModel.forward

    def forward(self, input_ids, attention_mask):
        if self.training and input_ids.size(0) > 4:
            raise RuntimeError("CUDA out of memory (simulated)")
        return original(self, input_ids, attention_mask)

    original_packed = heads.SequenceHeadModel.forward_packed

    def forward_packed(self, batch):
        if self.training and batch["starts"].numel() > 4:
            raise RuntimeError("CUDA out of memory (simulated)")
        return original_packed(self, batch)

    monkeypatch.setattr(heads.SequenceHeadModel, "forward", forward)
    monkeypatch.setattr(heads.SequenceHeadModel, "forward_packed", forward_packed)
    _, output = _run(tiny_models, "bert", "binary", tmp_path, max_steps=2, eval_fraction=0.5)
    config = output.info["train_config"]
    assert config["per_device_batch"] == 16 and config["per_device_batch_final"] == 4
    assert config["oom_reductions"] == 2 and output.info["steps_run"] == 2


def test_minilm_mlm_result_says_the_score_is_meaningless(tiny_models, tmp_path):
    from dataclasses import replace

    task = make_task("mlm")
    data = make_data(task)
    ref = replace(local_model_ref("minilm", tiny_models["bert"]), spec="minilm")
    context = RunContext(
        task=task,
        data=data,
        model=ref,
        seed=1,
        options={**FAST, "max_steps": 2},
        work_dir=tmp_path / "work",
        registry=get_registry(),
    )
    info = FinetuneMethod().run(context).info
    assert info["score_meaningless"] is True and "random" in info["warning"]
