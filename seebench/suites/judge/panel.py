"""A panel of judges: how far the judges agree with each other (Krippendorff's alpha)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np

from seebench.errors import SeebenchError


def panel_alpha(
    scores: Mapping[str, Sequence[float | None]],
    *,
    level: Literal["nominal", "ordinal", "interval", "ratio"] = "interval",
) -> float:
    """Krippendorff's alpha among judges (``scores[judge][unit]``, ``None`` = unscored).

    ``level`` is ``interval`` for 1-5 grades, ``ordinal`` for ranks or ``nominal`` for pairwise
    verdicts. Needs at least two judges and one unit scored by two of them.
    """
    try:
        import krippendorff
    except ImportError:
        raise SeebenchError(
            "panel agreement needs 'krippendorff' (pip install 'seebench[judge]')"
        ) from None
    if len(scores) < 2:
        raise ValueError(f"a panel needs at least two judges, got {len(scores)}")
    lengths = {len(values) for values in scores.values()}
    if len(lengths) != 1:
        raise ValueError(f"judges scored different numbers of units: {sorted(lengths)}")
    matrix = np.array(
        [[np.nan if v is None else float(v) for v in values] for values in scores.values()]
    )
    if not (np.sum(~np.isnan(matrix), axis=0) >= 2).any():
        raise ValueError("no unit was scored by two judges")
    return float(krippendorff.alpha(reliability_data=matrix, level_of_measurement=level))
