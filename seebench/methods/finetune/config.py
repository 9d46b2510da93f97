"""SELU's fine-tuning protocol (§IV-C) as defaults, overridable by CLI/YAML options."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any

from seebench.errors import SeebenchError
from seebench.tasks.types import MASKED_WORDS, TAG_SEQUENCE

TOKEN_TASKS = (TAG_SEQUENCE, MASKED_WORDS)  # target kinds trained per token


#: Short names accepted for some options.
ALIASES = {
    "lr": "learning_rate",
    "batch_size": "effective_batch",
    "rank": "lora_r",
    "alpha": "lora_alpha",
    "targets": "lora_targets",
    "lora_rank": "lora_r",
}


@dataclass
class TrainConfig:
    """Every training hyper-parameter; ``None`` means "derive it from the protocol"."""

    effective_batch: int = 64
    per_device_batch: int | None = None  # None: the effective batch, halved on OOM
    epochs: float | None = None  # None: 10, or 50 for NER/MLM
    max_steps: int | None = None  # caps the optimiser steps (reduced runs); None: epochs
    eval_fraction: float = 0.1  # evaluate every 10% of the total steps
    patience: int = 3  # early stopping after 3 evaluations without improvement
    learning_rate: float | None = None  # None: 1e-4 below lr_threshold instances, else 1e-5
    lr_threshold: int = 10_000
    warmup_ratio: float = 0.1
    weight_decay: float = 0.01
    dropout: float = 0.1
    bf16: str = "auto"  # auto: where the hardware supports it (CUDA with bf16)
    max_length: int | None = None  # None: the model's maximum
    group_by_length: bool = True
    pad_to_multiple_of: int | None = 8
    packing: bool = True  # BERT encoders, sequence/token heads: padding-free training batches
    compact_vocabulary: bool = True  # embed only the task's tokens (same results, less work)
    mlm_probability: float = 0.5  # SELU masks POS verbs with probability 0.5 while training
    peft: str | None = None  # None or "lora"
    lora_r: int = 8
    lora_alpha: int = 16
    lora_dropout: float = 0.1
    lora_targets: list[str] | None = None  # None: peft's default for the model type
    deepspeed: str | None = None  # None, "zero1" or "zero2"
    nproc: int = 2  # processes for the DeepSpeed launch
    eval_batch: int = 128
    architecture: str | None = None  # force encoder / decoder / encoder-decoder
    validation_fraction: float = 0.1  # carved from train when a task has no validation split
    max_validation: int | None = None  # evaluate on at most N validation samples (reduced runs)
    threads: int | None = None  # None: OMP_NUM_THREADS, else the CPUs the process may use

    @classmethod
    def from_options(cls, options: dict[str, Any]) -> TrainConfig:
        """Build from the merged method options; unknown keys fail with one line."""
        known = {f.name: f for f in fields(cls)}
        aliases = ALIASES
        values: dict[str, Any] = {}
        for key, value in options.items():
            name = aliases.get(key, key)
            if name not in known:
                raise SeebenchError(
                    f"finetune: unknown option {key!r}; known: {', '.join(sorted(known))}"
                )
            values[name] = _coerce(name, value, cls.__dataclass_fields__[name].default)
        config = cls(**values)
        config._normalise()
        return config

    def _normalise(self) -> None:
        if isinstance(self.lora_targets, str):
            self.lora_targets = [t.strip() for t in self.lora_targets.split(",") if t.strip()]
        if self.peft in (False, "none", "None", ""):
            self.peft = None
        if self.peft not in (None, "lora"):
            raise SeebenchError(f"finetune: peft={self.peft!r} is not supported (use lora)")
        if self.deepspeed in (False, "none", "None", ""):
            self.deepspeed = None
        if self.deepspeed is not None:
            self.deepspeed = str(self.deepspeed).lower()
            if self.deepspeed not in ("zero1", "zero2"):
                raise SeebenchError(
                    f"finetune: deepspeed={self.deepspeed!r} is not supported (zero1 or zero2)"
                )
        self.bf16 = str(self.bf16).lower()
        if self.bf16 not in ("auto", "true", "false"):
            raise SeebenchError(f"finetune: bf16={self.bf16!r}: expected auto, true or false")
        for name in ("effective_batch", "patience", "nproc", "eval_batch"):
            if int(getattr(self, name)) < 1:
                raise SeebenchError(f"finetune: {name} must be >= 1")

    def resolve(self, target_kind: str | None, n_train: int, world_size: int = 1) -> dict[str, Any]:
        """The concrete schedule for a task with ``n_train`` instances (recorded in ``info``)."""
        epochs = (
            self.epochs if self.epochs is not None else (50 if target_kind in TOKEN_TASKS else 10)
        )
        lr = self.learning_rate
        if lr is None:
            lr = 1e-4 if n_train < self.lr_threshold else 1e-5
        steps_per_epoch = max(1, math.ceil(n_train / self.effective_batch))
        total = max(1, math.ceil(steps_per_epoch * float(epochs)))
        if self.max_steps is not None:
            total = max(1, min(total, int(self.max_steps)))
        local_batch = max(1, math.ceil(self.effective_batch / world_size))
        per_device = min(local_batch, int(self.per_device_batch or local_batch))
        return {
            **asdict(self),
            "epochs": float(epochs),
            "learning_rate": float(lr),
            "steps_per_epoch": steps_per_epoch,
            "total_steps": total,
            "eval_every": max(1, round(total * self.eval_fraction)),
            "warmup_steps": round(total * self.warmup_ratio),
            "per_device_batch": per_device,
            "world_size": world_size,
        }


def _coerce(name: str, value: Any, default: Any) -> Any:
    """Turn string option values (``-o epochs=3``) into the field's type."""
    if not isinstance(value, str) or name in (
        "bf16",
        "peft",
        "deepspeed",
        "architecture",
        "lora_targets",
    ):
        return value
    text = value.strip()
    if text.lower() in ("none", "null", ""):
        return None
    if isinstance(default, bool) or name in ("group_by_length", "packing", "compact_vocabulary"):
        return text.lower() in ("1", "true", "yes", "on")
    try:
        number = float(text)
    except ValueError:
        raise SeebenchError(f"finetune: option {name}={value!r}: expected a number") from None
    return (
        int(number)
        if number.is_integer()
        and name
        not in (
            "epochs",
            "learning_rate",
            "eval_fraction",
            "warmup_ratio",
            "weight_decay",
            "dropout",
            "lora_dropout",
            "mlm_probability",
            "validation_fraction",
        )
        else number
    )
