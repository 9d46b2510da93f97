"""Two-level scoring: per-sample scorers give a :class:`Score`, metrics aggregate over a test set.

A scorer is registered with the ``register_scorers`` hook; its factory returns an object with
``score(sample, prediction, context) -> Score`` and ``identity() -> dict``. The default scorer
of every task is its type's own per-sample score (``task.behaviour.sample_score``).
"""

from seebench.scoring.core import (
    TYPE_SCORER,
    Score,
    ScoreContext,
    Scorer,
    TypeScorer,
)

__all__ = ["TYPE_SCORER", "Score", "ScoreContext", "Scorer", "TypeScorer"]
