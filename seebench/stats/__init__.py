"""Statistics for comparing models across tasks (the analysis of the SELU paper, §IV-D).

Pure computation on NumPy arrays and :class:`ScoreMatrix`; no file formats, no plotting.
"""

from __future__ import annotations

from seebench.stats.analysis import compare_models
from seebench.stats.bayesian import PairwisePosteriors, pairwise_posteriors, signed_rank_probs
from seebench.stats.matrix import DEFAULT_TASK_TYPES, ScoreMatrix
from seebench.stats.report import BreakdownRow, ComparisonReport, ModelRow, Settings

__all__ = [
    "DEFAULT_TASK_TYPES",
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
