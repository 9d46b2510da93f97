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

import importlib
from typing import Any

#: public names and their modules, imported on first use: loading the suite's plugin at
#: start-up must not import numpy
_EXPORTS = {
    "AgreementMatrix": "agreement",
    "agreement_by_level": "agreement",
    "pairwise_alpha": "agreement",
    "RatingData": "ratings",
    "RatingItem": "ratings",
    "random_rater": "ratings",
    "LEVELS": "scale",
    "Scale": "scale",
    "admissible_levels": "scale",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'seebench.suites.annotation' has no attribute {name!r}")
    return getattr(importlib.import_module(f"seebench.suites.annotation.{module}"), name)
