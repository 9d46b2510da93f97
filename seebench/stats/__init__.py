"""Statistics for comparing models across tasks: ranking, effect sizes, Bayesian signed-rank
posteriors, tiers and breakdowns (``docs/statistics.md`` gives the method and its sources).

Pure computation on NumPy arrays and :class:`ScoreMatrix`; no file formats, no plotting.
"""

from __future__ import annotations

from seebench.stats.analysis import compare_models
from seebench.stats.bayesian import PairwisePosteriors, pairwise_posteriors, signed_rank_probs
from seebench.stats.matrix import ScoreMatrix
from seebench.stats.report import BreakdownRow, ComparisonReport, ModelRow, Settings

__all__ = [
    "BreakdownRow",
    "ComparisonReport",
    "ModelRow",
    "PairwisePosteriors",
    "ScoreMatrix",
    "Settings",
    "compare_models",
    "pairwise_posteriors",
    "signed_rank_probs",
]
