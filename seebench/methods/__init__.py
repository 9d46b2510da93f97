"""Evaluation methods: the contract between the runner and a way of evaluating a model."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.lazy_exports import lazy_exports

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


__getattr__ = lazy_exports(__name__, _LAZY)
