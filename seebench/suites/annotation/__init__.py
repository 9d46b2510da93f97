"""Multi-rater annotation tasks and their agreement analysis (Ahmed et al., MSR 2025).

- :mod:`.scale`: rating scales and levels of measurement;
- :mod:`.ratings`: the one structure every source is read into (items, ratings by rater);
- :mod:`.readers` / :mod:`.layouts`: the five published layouts;
- :mod:`.agreement`: pairwise Krippendorff's alpha, HH/HM/MM zones, Cohen's kappa;
- :mod:`.replacement`: replacing human ratings with a model's, effort saved, RQ2 correlation;
- :mod:`.analysis`: the whole analysis of one task; :mod:`.report` / :mod:`.export`: tables,
  figures and the multi-task exports;
- :mod:`.rows`, :mod:`.task_type`, :mod:`.metrics`, :mod:`.method`, :mod:`.rater_prompt`,
  :mod:`.cli`: the plugin parts (data step, ``ratings`` type, metrics, ``annotate``,
  ``seebench agreement``), registered by :mod:`seebench.suites.annotation.plugin`;
- :mod:`.task_config`: reading a task's ratings straight from a checksummed mirror.
"""

from seebench.suites.annotation.agreement import AgreementMatrix, agreement_by_level, pairwise_alpha
from seebench.suites.annotation.ratings import RatingData, RatingItem, random_rater
from seebench.suites.annotation.scale import LEVELS, Scale, admissible_levels

__all__ = [
    "LEVELS",
    "AgreementMatrix",
    "RatingData",
    "RatingItem",
    "Scale",
    "admissible_levels",
    "agreement_by_level",
    "pairwise_alpha",
    "random_rater",
]
