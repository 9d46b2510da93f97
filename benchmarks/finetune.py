"""Training throughput of seebench's fine-tuning vs a plain Hugging Face Trainer setup.

Both sides train the same model on the same task's training split for the same number of
optimiser steps with the same batch size, learning rate, schedule and truncation length, in
one process, one after the other:

- seebench: ``seebench.finetune.train.finetune`` (dynamic padding to the longest sequence
  of each batch, rounded up to a multiple of 8, and length-grouped batches);
- baseline: ``transformers.Trainer`` with ``AutoModelForSequenceClassification`` and the
  dataset tokenised with ``padding="max_length"`` (every batch padded to ``--max-length``).

Prints examples/s of both (training steps only; evaluation excluded), the ratio, and the
validation metric (the task's primary metric) each reaches after those steps.

Usage: SEEBENCH_HOME=... python benchmarks/finetune.py [--model minilm] [--task functional_requirement]
       [--steps 8] [--batch 32] [--max-length 128] [--seed 42]
Goal (issue 5): ratio >= 1.5 with the same metric within noise.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def _load(model_spec: str, task_name: str, seed: int):
    from seebench.data.dataset import load_task_data
    from seebench.finetune.arch import model_dir
    from seebench.models import resolve_model
    from seebench.plugin_manager import get_registry
    from seebench.tasks.index import get_task_index

    registry = get_registry()
    task = get_task_index().get(task_name)
    ref, _ = resolve_model(model_spec, registry)
    return task, load_task_data(task, registry, seed=seed), model_dir(ref)


def run_seebench(task, data, directory: Path, args) -> dict:
    from seebench.finetune.train import finetune

    options = {
        "effective_batch": args.batch,
        "max_steps": args.steps,
        "eval_fraction": 1.0,
        "max_length": args.max_length,
        "learning_rate": args.lr,
        "patience": 10**6,
    }
    with tempfile.TemporaryDirectory() as work:
        _, info = finetune(task, data, directory, args.seed, options, work_dir=Path(work))
    return {
        "examples_per_s": info["train_examples_per_s"],
        "validation": info["best_validation"],
        "train_seconds": info["train_seconds"],
        "steps": info["steps_run"],
    }


def run_hf_trainer(task, data, directory: Path, args) -> dict:
    import numpy as np
    import torch
    from transformers import (
        AutoModelForSequenceClassification,
        AutoTokenizer,
        Trainer,
        TrainerCallback,
        TrainingArguments,
    )

    from seebench.plugin_manager import get_registry

    labels = task.label_names
    tokenizer = AutoTokenizer.from_pretrained(str(directory))
    model = AutoModelForSequenceClassification.from_pretrained(
        str(directory), num_labels=len(labels), dtype=torch.float32
    )

    class Rows(torch.utils.data.Dataset):
        def __init__(self, samples):
            enc = tokenizer(
                [str(s.input) for s in samples],
                padding="max_length",
                truncation=True,
                max_length=args.max_length,
            )
            self.rows = [
                {
                    "input_ids": enc["input_ids"][i],
                    "attention_mask": enc["attention_mask"][i],
                    "labels": labels.index(str(s.target)),
                }
                for i, s in enumerate(samples)
            ]

        def __len__(self):
            return len(self.rows)

        def __getitem__(self, index):
            return {k: torch.tensor(v) for k, v in self.rows[index].items()}

    class Clock(TrainerCallback):
        def on_train_begin(self, *a, **k):
            self.start = time.perf_counter()

        def on_train_end(self, *a, **k):
            self.seconds = time.perf_counter() - self.start

    clock = Clock()
    with tempfile.TemporaryDirectory() as out:
        training = TrainingArguments(
            output_dir=out,
            per_device_train_batch_size=args.batch,
            per_device_eval_batch_size=128,
            max_steps=args.steps,
            learning_rate=args.lr,
            weight_decay=0.01,
            warmup_steps=round(0.1 * args.steps),
            lr_scheduler_type="linear",
            save_strategy="no",
            eval_strategy="no",
            logging_strategy="no",
            report_to=[],
            use_cpu=not torch.cuda.is_available(),
            seed=args.seed,
            dataloader_num_workers=0,
            disable_tqdm=True,
        )
        trainer = Trainer(
            model=model, args=training, train_dataset=Rows(data.train), callbacks=[clock]
        )
        trainer.train()
        logits = trainer.predict(Rows(data.validation)).predictions
    predictions = [labels[i] for i in np.asarray(logits).argmax(-1)]
    metric = get_registry().metric(task.primary_metric).load()
    value = metric([s.target for s in data.validation], predictions, labels=labels)
    return {
        "examples_per_s": round(args.steps * args.batch / clock.seconds, 2),
        "validation": float(value),
        "train_seconds": round(clock.seconds, 1),
        "steps": args.steps,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="minilm")
    parser.add_argument("--task", default="functional_requirement")
    parser.add_argument("--steps", type=int, default=8)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--max-length", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    task, data, directory = _load(args.model, args.task, args.seed)
    if task.type not in ("binary", "multiclass"):
        raise SystemExit("the benchmark compares single-label classification tasks only")
    print(
        f"model={args.model} task={args.task} train={len(data.train)} validation={len(data.validation)} "
        f"steps={args.steps} batch={args.batch} max_length={args.max_length}"
    )
    ours = run_seebench(task, data, directory, args)
    print(
        f"seebench  : {ours['examples_per_s']:8.2f} examples/s  ({ours['train_seconds']} s)  "
        f"validation {task.primary_metric} = {ours['validation']:.4f}"
    )
    base = run_hf_trainer(task, data, directory, args)
    print(
        f"HF Trainer: {base['examples_per_s']:8.2f} examples/s  ({base['train_seconds']} s)  "
        f"validation {task.primary_metric} = {base['validation']:.4f}  (padding=max_length)"
    )
    print(f"ratio seebench / HF Trainer: {ours['examples_per_s'] / base['examples_per_s']:.2f}x")


if __name__ == "__main__":
    main()
