"""Pairwise Krippendorff's alpha between every two raters, and zone summaries.

As in Ahmed et al. (MSR 2025): alpha is computed for each pair of raters on the items both
rated, then summarised over the pairs of a zone (human-human ``HH``, human-model ``HM``,
model-model ``MM``) by mean and median. Model and random raters are just more raters; the
random control rater appears in the matrix but in no zone. Alpha itself comes from the
``krippendorff`` package; the level of measurement is always passed explicitly.
"""

from __future__ import annotations

import itertools
import statistics
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from seebench.suites.annotation.ratings import HUMAN, MODEL, RatingData
from seebench.suites.annotation.scale import admissible_levels, check_level

if TYPE_CHECKING:
    from seebench.suites.annotation.scale import Level

ZONES: dict[str, tuple[str, str]] = {
    "HH": (HUMAN, HUMAN),
    "HM": (HUMAN, MODEL),
    "MM": (MODEL, MODEL),
}


def rating_matrix(data: RatingData, raters: Sequence[str] | None = None) -> np.ndarray:
    """Raters x items array of numeric ratings (scale values or ranks), NaN where not rated."""
    raters = list(raters) if raters is not None else data.raters
    column = {item_id: j for j, item_id in enumerate(data.item_ids)}
    matrix = np.full((len(raters), len(column)), np.nan)
    for i, rater in enumerate(raters):
        for item_id, value in data.ratings[rater].items():
            matrix[i, column[item_id]] = data.scale.numeric(value)
    return matrix


def pair_alpha(
    first: np.ndarray, second: np.ndarray, level: str, domain: Sequence[float]
) -> float | None:
    """Alpha of two raters on the items both rated; None when undefined (fewer than two
    shared items, or no variation at all)."""
    import krippendorff

    both = ~(np.isnan(first) | np.isnan(second))
    if both.sum() < 2:
        return None
    data = np.vstack([first[both], second[both]])
    if np.unique(data).size < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value = float(
            krippendorff.alpha(
                data, value_domain=list(domain), level_of_measurement=cast("Level", level)
            )
        )
    return None if np.isnan(value) else value


def scale_codes(matrix: np.ndarray, domain: Sequence[float]) -> np.ndarray:
    """Numeric ratings as positions in ``domain`` (-1 where not rated)."""
    codes = np.full(matrix.shape, -1, dtype=np.int64)
    for position, value in enumerate(domain):
        codes[matrix == value] = position
    return codes


def counts_alpha(
    first: np.ndarray, second: np.ndarray, level: str, domain: Sequence[float]
) -> float | None:
    """Alpha of two raters from their scale positions on shared items (same result as
    :func:`pair_alpha`, via ``krippendorff``'s value-counts input; faster in loops)."""
    import krippendorff

    if first.size < 2:
        return None
    identity = np.eye(len(domain), dtype=np.int64)
    counts = identity[first] + identity[second]
    if np.count_nonzero(counts.sum(axis=0)) < 2:
        return None
    return float(
        krippendorff.alpha(
            value_counts=counts, value_domain=domain, level_of_measurement=cast("Level", level)
        )
    )


@dataclass(frozen=True)
class AgreementMatrix:
    """Pairwise alpha (NaN where undefined) and overlap counts for one level of measurement."""

    level: str
    raters: tuple[str, ...]
    kinds: tuple[str, ...]
    alpha: np.ndarray
    overlap: np.ndarray

    def zone_values(self, zone: str) -> list[float]:
        """Defined alphas of the distinct pairs in ``zone`` (``HH``, ``HM`` or ``MM``)."""
        first_kind, second_kind = ZONES[zone]
        values = []
        for i, j in itertools.combinations(range(len(self.raters)), 2):
            kinds = {self.kinds[i], self.kinds[j]}
            if kinds == {first_kind, second_kind} and not np.isnan(self.alpha[i, j]):
                values.append(float(self.alpha[i, j]))
        return values

    def zones(self) -> dict[str, dict[str, Any]]:
        """Mean, median and number of pairs per zone (mean/median None when a zone is empty)."""
        summary = {}
        for zone in ZONES:
            values = self.zone_values(zone)
            summary[zone] = {
                "mean": statistics.fmean(values) if values else None,
                "median": statistics.median(values) if values else None,
                "pairs": len(values),
            }
        return summary


def pairwise_alpha(
    data: RatingData, level: str, raters: Sequence[str] | None = None
) -> AgreementMatrix:
    """Alpha for every pair of raters at ``level`` (which must be admissible for the data)."""
    check_level(level)
    if level not in admissible_levels(data.level):
        raise ValueError(f"level {level!r} is not admissible for data declared {data.level!r}")
    raters = tuple(raters) if raters is not None else tuple(data.raters)
    matrix = rating_matrix(data, raters)
    rated = ~np.isnan(matrix)
    overlap = rated.astype(int) @ rated.T.astype(int)
    alpha = np.full((len(raters), len(raters)), np.nan)
    domain = data.scale.domain()
    for i, j in itertools.combinations(range(len(raters)), 2):
        value = pair_alpha(matrix[i], matrix[j], level, domain)
        if value is not None:
            alpha[i, j] = alpha[j, i] = value
    return AgreementMatrix(level, raters, tuple(data.kind(r) for r in raters), alpha, overlap)


def agreement_by_level(data: RatingData) -> dict[str, AgreementMatrix]:
    """One matrix per admissible level of measurement, weakest (nominal) first."""
    return {level: pairwise_alpha(data, level) for level in admissible_levels(data.level)}


def zone_table(matrices: dict[str, AgreementMatrix]) -> list[dict[str, Any]]:
    """Rows ``{level, zone, mean, median, pairs}`` for every level and zone."""
    rows = []
    for level, matrix in matrices.items():
        for zone, values in matrix.zones().items():
            rows.append({"level": level, "zone": zone, **values})
    return rows


def pairwise_kappa(
    data: RatingData, raters: Sequence[str] | None = None, *, weights: str | None = None
) -> np.ndarray:
    """Cohen's kappa (scikit-learn) for every pair on shared items; NaN where undefined.

    ``weights`` is None (nominal), ``"linear"`` or ``"quadratic"`` (ordered scales).
    """
    from sklearn.metrics import cohen_kappa_score

    raters = tuple(raters) if raters is not None else tuple(data.raters)
    matrix = rating_matrix(data, raters)
    kappa = np.full((len(raters), len(raters)), np.nan)
    labels = data.scale.domain()
    for i, j in itertools.combinations(range(len(raters)), 2):
        both = ~(np.isnan(matrix[i]) | np.isnan(matrix[j]))
        if both.sum() < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            value = cohen_kappa_score(
                matrix[i][both], matrix[j][both], labels=labels, weights=weights
            )
        if not np.isnan(value):
            kappa[i, j] = kappa[j, i] = value
    return kappa


def fleiss_kappa(data: RatingData, raters: Sequence[str] | None = None) -> dict[str, Any]:
    """Fleiss' kappa (statsmodels) over the items that have the most common number of ratings
    from ``raters`` (default: the human raters); Fleiss needs the same count on every item."""
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

    raters = list(raters) if raters is not None else data.raters_of(HUMAN)
    codes = scale_codes(rating_matrix(data, raters), data.scale.domain())
    per_item = (codes >= 0).sum(axis=0)
    counts = per_item[per_item >= 2]
    if counts.size == 0:
        return {"kappa": None, "items": 0, "ratings_per_item": 0}
    common = int(np.bincount(counts).argmax())
    columns = per_item == common
    table = np.array([column[column >= 0] for column in codes[:, columns].T])
    frequencies, _ = aggregate_raters(table, n_cat=len(data.scale.values))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        kappa = float(statsmodels_fleiss(frequencies, method="fleiss"))
    return {
        "kappa": None if np.isnan(kappa) else kappa,
        "items": int(columns.sum()),
        "ratings_per_item": common,
    }
