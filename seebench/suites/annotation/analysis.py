"""The whole agreement analysis of one task: matrices, zones, human band, replacement, effort.

:func:`analyse_task` takes the human data and any number of model raters (ratings and,
optionally, the confidence of each rating), adds the seeded random control rater, and returns
everything the paper reports for that task as one :class:`TaskAgreement`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from seebench.suites.annotation.agreement import AgreementMatrix, agreement_by_level, zone_table
from seebench.suites.annotation.all_raters import all_raters_table
from seebench.suites.annotation.ratings import HUMAN, MODEL, RatingData, random_rater
from seebench.suites.annotation.replacement import (
    FRACTIONS,
    HumanBand,
    ReplacementCurve,
    effort_saved,
    human_band,
    largest_safe_fraction,
    majority_agreement,
    replacement_curves,
)
from seebench.suites.annotation.report import matrix_rows


@dataclass(frozen=True)
class ModelRater:
    """A model's ratings of a task's items, with the probability of each answer if known."""

    name: str
    ratings: Mapping[str, Any]
    confidence: Mapping[str, float] | None = None


@dataclass
class TaskAgreement:
    """Everything :func:`analyse_task` found for one task."""

    task: str
    level: str
    summary: dict[str, Any]
    matrices: dict[str, AgreementMatrix]
    band: HumanBand | None = None
    curves: dict[str, dict[str, ReplacementCurve]] = field(default_factory=dict)
    safe_fraction: dict[str, float] = field(default_factory=dict)
    effort: dict[str, dict[str, float]] = field(default_factory=dict)
    majority: dict[str, list[dict[str, float]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    ratings_per_item: float = 0.0
    all_raters: dict[str, Any] = field(default_factory=dict)  # alpha over all human raters

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable view (NaN as None)."""

        def clean(value: Any) -> Any:
            if isinstance(value, float) and math.isnan(value):
                return None
            if isinstance(value, dict):
                return {k: clean(v) for k, v in value.items()}
            if isinstance(value, list | tuple):
                return [clean(v) for v in value]
            return value

        return clean(
            {
                "task": self.task,
                "level": self.level,
                "summary": self.summary,
                "zones": zone_table(self.matrices),
                "all_raters": self.all_raters,
                "pairs": [row for m in self.matrices.values() for row in matrix_rows(m)],
                "human_band": asdict(self.band) if self.band else None,
                "replacement": {
                    m: {s: asdict(c) for s, c in by.items()} for m, by in self.curves.items()
                },
                "safe_fraction": self.safe_fraction,
                "ratings_per_item": self.ratings_per_item,
                "effort_saved": self.effort,
                "majority_agreement": self.majority,
                "problems": self.problems,
            }
        )


def ratings_per_item(data: RatingData) -> float:
    """The median number of human ratings of the items humans rated (Table II's first column)."""
    counts = [n for n in data.ratings_per_item(HUMAN).values() if n > 0]
    return float(statistics.median(counts)) if counts else 0.0


def analyse_task(
    task: str,
    data: RatingData,
    models: Sequence[ModelRater] = (),
    *,
    seed: int = 0,
    with_random_rater: bool = True,
    band_repetitions: int = 1000,
    repetitions: int = 100,
    fractions: Sequence[float] = FRACTIONS,
) -> TaskAgreement:
    """Pairwise alpha at every admissible level with all raters; at the declared level, the
    human band and, for each model with confidences, the replacement curves, the largest safe
    fraction, the effort saved and the majority agreement. A model whose ratings cannot be used
    is reported in ``problems`` and the rest of the analysis goes on."""
    problems = list(data.problems)
    combined = data
    usable = []
    for model in models:
        try:
            combined = combined.with_rater(model.name, model.ratings, kind=MODEL)
            usable.append(model)
        except Exception as exc:  # one bad model never stops the analysis of the others
            problems.append(f"{task}: model {model.name!r} left out: {exc}")
    if with_random_rater:
        combined = random_rater(combined, seed=seed)
    result = TaskAgreement(
        task, data.level, data.summary(), agreement_by_level(combined), problems=problems
    )
    result.all_raters = all_raters_table(data)
    try:
        result.band = human_band(data, data.level, repetitions=band_repetitions, seed=seed)
    except ValueError as exc:
        problems.append(f"{task}: no human band: {exc}")
        return result
    per_item = ratings_per_item(data)
    result.ratings_per_item = per_item
    for model in usable:
        if not model.confidence:
            continue
        try:
            curves = replacement_curves(
                data,
                model.ratings,
                model.confidence,
                data.level,
                fractions=fractions,
                repetitions=repetitions,
                seed=seed,
            )
        except ValueError as exc:
            problems.append(f"{task}: no replacement curves for {model.name!r}: {exc}")
            continue
        result.curves[model.name] = curves
        safe = largest_safe_fraction(curves["confidence"], result.band)
        with_humans = _mean_with_humans(result.matrices.get(data.level), model.name)
        if safe and with_humans is not None and with_humans <= 0:
            # many raters per item hide one rater in the band: never call a rater safe who
            # agrees with the humans no better than chance
            problems.append(
                f"{task}: no fraction is safe for {model.name!r}: its mean alpha with the "
                f"human raters is {with_humans:.3f} (not above chance)"
            )
            safe = 0.0
        result.safe_fraction[model.name] = safe
        result.effort[model.name] = effort_saved(safe, per_item)
        result.majority[model.name] = majority_agreement(
            data, model.ratings, model.confidence, fractions=fractions
        )
    return result


def _mean_with_humans(matrix: AgreementMatrix | None, rater: str) -> float | None:
    """The mean pairwise alpha of ``rater`` with each human rater (``None``: undefined)."""
    if matrix is None or rater not in matrix.raters:
        return None
    i = matrix.raters.index(rater)
    values = [
        float(matrix.alpha[i, j])
        for j, kind in enumerate(matrix.kinds)
        if kind == HUMAN and j != i and not math.isnan(matrix.alpha[i, j])
    ]
    return statistics.fmean(values) if values else None
