"""Two-level scoring: per-sample scorers give a :class:`Score`, metrics aggregate over a test set.

A scorer is registered with the ``register_scorers`` hook; its factory returns an object with
``score(sample, prediction, context) -> Score`` and ``identity() -> dict``. The default scorer
of every task is its type's own per-sample score (``task.behaviour.sample_score``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from seebench.scoring.core import (
        TYPE_SCORER,
        Score,
        ScoreContext,
        Scorer,
        TypeScorer,
    )

#: each public name and the module that defines it, imported on first use (PEP 562): a plugin
#: module of this package, imported at start-up, does not import them all
_LAZY = {
    "TYPE_SCORER": "seebench.scoring.core",
    "Score": "seebench.scoring.core",
    "ScoreContext": "seebench.scoring.core",
    "Scorer": "seebench.scoring.core",
    "TypeScorer": "seebench.scoring.core",
}

__all__ = ["TYPE_SCORER", "Score", "ScoreContext", "Scorer", "TypeScorer"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
