"""Two-level scoring: per-sample scorers give a :class:`Score`, metrics aggregate over a test set.

A scorer is registered with the ``register_scorers`` hook; its factory returns an object with
``score(sample, prediction, context) -> Score`` and ``identity() -> dict``. The default scorer
of every task is its type's own per-sample score (``task.behaviour.sample_score``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.lazy_exports import lazy_exports

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


__getattr__ = lazy_exports(__name__, _LAZY)
