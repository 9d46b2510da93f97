"""seebench: a benchmark plugin framework for software-engineering evaluation.

The names below are re-exported lazily (so ``import seebench`` stays cheap). Plugin authors
import from :mod:`seebench.api`, the public API with a stability promise (semantic
versioning, deprecations that warn for at least one minor release: docs/plugins.md,
"Stability"); every other module is internal and may change between releases.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

from seebench.hookspecs import hookimpl  # noqa: E402

_LAZY = {
    "TaskSpec": "seebench.tasks.spec",
    "Label": "seebench.tasks.spec",
    "Sample": "seebench.data.dataset",
    "TaskData": "seebench.data.dataset",
    "load_task_data": "seebench.data.dataset",
    "Method": "seebench.methods.base",
    "MethodOutput": "seebench.methods.base",
    "Prediction": "seebench.methods.base",
    "RunContext": "seebench.methods.base",
    "ModelRef": "seebench.models",
    "UnitFinished": "seebench.events",
    "SeebenchError": "seebench.errors",
    "EvalConfig": "seebench.runner.config",
    "run_eval": "seebench.executors.evaluate",
}

__all__ = ["__version__", "hookimpl", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'seebench' has no attribute {name!r}")
