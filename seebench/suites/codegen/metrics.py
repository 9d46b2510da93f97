"""Metrics over the scores of code-executing scorers."""

from __future__ import annotations

import math
from collections.abc import Sequence

from seebench.scoring.core import Score


def pass_rate(scores: Sequence[Score]) -> float:
    """The share of scored samples that passed (score 1.0); unscored samples (no sandbox)
    are left out (the result counts them under ``unscored``); NaN when none was scored."""
    scored = [s.value for s in scores if s.value is not None]
    if not scored:
        return math.nan
    return sum(1 for value in scored if value >= 1.0) / len(scored)
