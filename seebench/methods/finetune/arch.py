"""Loading a Hugging Face model directory and telling its architecture family apart."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.errors import ModelError

ENCODER, DECODER, ENCODER_DECODER = "encoder", "decoder", "encoder-decoder"
FAMILIES = (ENCODER, DECODER, ENCODER_DECODER)
DEFAULT_MAX_LENGTH = 512


def model_dir(model: Any) -> Path:
    """The local directory of a :class:`~seebench.models.ModelRef` (``identity["path"]``)."""
    path = (getattr(model, "identity", None) or {}).get("path")
    if not path:
        raise ModelError(
            f"model {getattr(model, 'spec', model)!r} has no local path; the finetune "
            "method needs a Hugging Face model directory (hf:/path or minilm)"
        )
    return Path(path)


def read_config(directory: Path) -> dict[str, Any]:
    config = directory / "config.json"
    if not config.is_file():
        raise ModelError(f"{config}: missing; the finetune method needs a transformers model")
    try:
        return json.loads(safe_files.read_text(config, safe_files.TEXT_MAX_BYTES))
    except (OSError, ValueError, RecursionError) as exc:
        raise ModelError(f"{config}: unreadable: {exc}") from None


def family_of(config: dict[str, Any]) -> str:
    """encoder / decoder / encoder-decoder from a ``config.json`` mapping (no torch import)."""
    if config.get("is_encoder_decoder"):
        return ENCODER_DECODER
    architectures = " ".join(config.get("architectures") or [])
    if (
        any(key in architectures for key in ("CausalLM", "LMHeadModel"))
        and "MaskedLM" not in architectures
    ):
        return DECODER
    model_type = str(config.get("model_type", "")).lower()
    decoders = (
        "gpt",
        "llama",
        "mistral",
        "qwen",
        "phi",
        "starcoder",
        "codegen",
        "opt",
        "bloom",
        "falcon",
        "gemma",
        "smollm",
        "olmo",
        "mpt",
    )
    encoders = ("bert", "roberta", "electra", "deberta", "albert", "modernbert", "xlm")
    if any(model_type.startswith(name) for name in encoders):
        return ENCODER
    if any(model_type.startswith(name) for name in decoders):
        return DECODER
    return ENCODER


def attention_implementation() -> str:
    """Flash Attention 2 where installed and a GPU is present, else PyTorch SDPA."""
    import torch
    from transformers.utils import is_flash_attn_2_available

    if torch.cuda.is_available() and is_flash_attn_2_available():
        return "flash_attention_2"
    return "sdpa"


def load_tokenizer(directory: Path, family: str):
    """The model's fast tokenizer; decoder-only models get their EOS token as padding."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(str(directory))
    except Exception as exc:
        raise ModelError(
            f"{directory}: cannot load a tokenizer: {type(exc).__name__}: {exc}"
        ) from None
    if getattr(tokenizer, "add_prefix_space", None) is False:  # byte-level BPE and word lists
        with contextlib.suppress(Exception):  # else keep the original tokenizer
            tokenizer = AutoTokenizer.from_pretrained(str(directory), add_prefix_space=True)
    if tokenizer.pad_token is None:
        if tokenizer.eos_token is None:
            raise ModelError(f"{directory}: the tokenizer has neither a pad nor an EOS token")
        tokenizer.pad_token = tokenizer.eos_token
    tokenizer.padding_side = "right"
    return tokenizer


def max_length(tokenizer: Any, config: dict[str, Any], requested: int | None) -> int:
    """Truncation length: the model's maximum (position embeddings / tokenizer), or less."""
    found = [config.get(key) for key in ("max_position_embeddings", "n_positions")]
    limits = [int(v) for v in found if isinstance(v, int) and v > 0]
    if config.get("model_type") in ("roberta", "xlm-roberta", "camembert"):
        limits = [v - 2 for v in limits]  # two positions are reserved for the padding offset
    tokenizer_max = getattr(tokenizer, "model_max_length", None)
    if isinstance(tokenizer_max, int) and 0 < tokenizer_max < 1_000_000:
        limits.append(tokenizer_max)
    limit = min(limits) if limits else DEFAULT_MAX_LENGTH
    return min(limit, int(requested)) if requested else limit


def load_backbone(directory: Path, kind: str, attn: str):
    """``kind``: "base" (AutoModel) or "mlm" (AutoModelForMaskedLM). Returns (model, info)."""
    import torch
    from transformers import AutoModel, AutoModelForMaskedLM
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()  # the load report is summarised in ``info`` instead
    hf_logging.disable_progress_bar()
    cls = AutoModelForMaskedLM if kind == "mlm" else AutoModel
    info: dict[str, Any] = {"attn_implementation": attn}
    try:
        try:
            model, loading = cls.from_pretrained(
                str(directory),
                dtype=torch.float32,
                attn_implementation=attn,
                output_loading_info=True,
            )
        except (ValueError, ImportError):
            info["attn_implementation"] = "eager"
            model, loading = cls.from_pretrained(
                str(directory),
                dtype=torch.float32,
                attn_implementation="eager",
                output_loading_info=True,
            )
    except Exception as exc:
        raise ModelError(
            f"{directory}: cannot load the model: {type(exc).__name__}: {exc}"
        ) from None
    missing = list(loading.get("missing_keys") or [])
    info["newly_initialised"] = missing[:20]
    info["n_newly_initialised"] = len(missing)
    return model, info
