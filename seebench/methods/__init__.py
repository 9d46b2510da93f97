"""Evaluation methods: the contract between the runner and a way of evaluating a model."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from seebench.methods.base import Method, MethodOutput, Prediction, RunContext

#: each public name and the module that defines it, imported on first use (PEP 562): a plugin
#: module of this package, imported at start-up, does not import them all
_LAZY = {
    "Method": "seebench.methods.base",
    "MethodOutput": "seebench.methods.base",
    "Prediction": "seebench.methods.base",
    "RunContext": "seebench.methods.base",
}

__all__ = ["Method", "MethodOutput", "Prediction", "RunContext"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
