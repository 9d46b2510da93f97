"""Replacing human ratings with a model's (RQ2-RQ4 of Ahmed et al., MSR 2025).

- :func:`human_band`: the human-human agreement and its band, from the mean pairwise alpha on
  random halves of the items (the paper: 50% of the samples, 1,000 times).
- :func:`replacement_curves`: for x = 10%..100% of the items, chosen by the model's confidence
  (highest first) or at random, one human rating per chosen item (the rater drawn at random) is
  replaced by the model's; the mean pairwise human-human alpha is recomputed, 100 times, and
  reported as mean and 95% interval.
- :func:`largest_safe_fraction` and :func:`effort_saved`: the largest x whose curve stays inside
  the human band at every fraction up to x, and the share of the annotation effort it saves
  (one rating per item out of the ratings each item needs: Table II).
- :func:`majority_agreement`: how often the model agrees with the human majority on the x% of
  items it is most confident about (Fig. 14).
- :func:`model_agreement_correlation`: Spearman's rho between mean model-model and mean
  human-model agreement across tasks (RQ2).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from seebench.suites.annotation.agreement import counts_alpha, rating_matrix, scale_codes
from seebench.suites.annotation.batch_alpha import pair_alpha_batch
from seebench.suites.annotation.ratings import HUMAN, RatingData

FRACTIONS: tuple[float, ...] = tuple(round(0.1 * k, 1) for k in range(1, 11))
STRATEGIES: tuple[str, ...] = ("confidence", "random")
#: replicates whose alphas are computed in one array operation (bounds the memory)
BATCH = 250


@dataclass(frozen=True)
class HumanBand:
    """Human-human mean pairwise alpha on all items and its bootstrap 95% band."""

    estimate: float
    low: float
    high: float
    share: float
    repetitions: int


@dataclass(frozen=True)
class ReplacementCurve:
    """Mean pairwise human alpha after replacement, per fraction: mean and 95% interval."""

    strategy: str
    fractions: tuple[float, ...]
    mean: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    items: tuple[int, ...]


class _HumanPanel:
    """The human ratings as scale positions plus, per pair of raters, the items both rated."""

    def __init__(self, data: RatingData, level: str):
        self.level = level
        self.domain = data.scale.domain()
        self.raters = data.raters_of(HUMAN)
        matrix = rating_matrix(data, self.raters)
        self.codes = scale_codes(matrix, self.domain)
        rated = self.codes >= 0
        self.pairs = []
        for i, j in itertools.combinations(range(len(self.raters)), 2):
            shared = np.flatnonzero(rated[i] & rated[j])
            if shared.size >= 2:
                self.pairs.append((i, j, shared))
        if not self.pairs:
            raise ValueError("no two human raters share two items: human-human alpha is undefined")
        self.raters_by_item = [np.flatnonzero(rated[:, j]) for j in range(self.codes.shape[1])]
        self.rater_counts = rated.sum(axis=0)
        # item -> its raters, padded to a table so that one draw picks a rater for many items
        self.rater_table = np.zeros((self.codes.shape[1], max(1, self.rater_counts.max())), int)
        for j, raters in enumerate(self.raters_by_item):
            self.rater_table[j, : raters.size] = raters

    def replace(
        self, codes: np.ndarray, items: np.ndarray, values: np.ndarray, rng: np.random.Generator
    ) -> None:
        """Give each of ``items`` the model's rating ``values`` in place of one of its human
        ratings, the rater drawn uniformly among the item's raters (in place, one draw)."""
        picks = rng.integers(0, self.rater_counts[items])
        codes[self.rater_table[items, picks], items] = values

    def mean_alpha(self, codes: np.ndarray, keep: np.ndarray | None = None) -> float:
        """Mean pairwise alpha; ``keep`` is a boolean mask of the items to use."""
        values = []
        for i, j, shared in self.pairs:
            columns = shared if keep is None else shared[keep[shared]]
            value = counts_alpha(codes[i, columns], codes[j, columns], self.level, self.domain)
            if value is not None:
                values.append(value)
        return float(np.mean(values)) if values else float("nan")

    def mean_alpha_batch(self, codes: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
        """:meth:`mean_alpha` of R replicates at once: ``codes`` is R x raters x items (or one
        raters x items array shared by all), ``keep`` an R x items mask (or ``None``)."""
        codes = codes if codes.ndim == 3 else codes[None]
        replicates = max(len(codes), 1 if keep is None else len(keep))
        total = np.zeros(replicates)
        defined = np.zeros(replicates)
        for start in range(0, replicates, BATCH):
            stop = min(start + BATCH, replicates)
            block = codes if len(codes) == 1 else codes[start:stop]
            for i, j, shared in self.pairs:
                first = np.broadcast_to(block[:, i, shared], (stop - start, shared.size))
                second = np.broadcast_to(block[:, j, shared], (stop - start, shared.size))
                if keep is not None:
                    kept = keep[start:stop][:, shared]
                    first, second = np.where(kept, first, -1), np.where(kept, second, -1)
                values = pair_alpha_batch(first, second, self.level, self.domain)
                ok = ~np.isnan(values)
                total[start:stop] += np.where(ok, values, 0.0)
                defined[start:stop] += ok
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(defined > 0, total / np.maximum(defined, 1), np.nan)


def human_band(
    data: RatingData, level: str, *, share: float = 0.5, repetitions: int = 1000, seed: int = 0
) -> HumanBand:
    """Mean pairwise human alpha on all items, and the 2.5-97.5 percentiles over random
    subsets holding ``share`` of the items."""
    panel = _HumanPanel(data, level)
    estimate = panel.mean_alpha(panel.codes)
    if np.isnan(estimate):
        raise ValueError(
            "human-human alpha is undefined on these items (no variation in the ratings)"
        )
    rng = np.random.default_rng(seed)
    n_items = panel.codes.shape[1]
    size = max(2, round(share * n_items))
    keep = np.zeros((repetitions, n_items), dtype=bool)
    for repetition in range(repetitions):
        keep[repetition, rng.choice(n_items, size=size, replace=False)] = True
    draws = panel.mean_alpha_batch(panel.codes, keep)
    low, high = np.nanpercentile(draws, [2.5, 97.5])
    return HumanBand(estimate, float(low), float(high), share, repetitions)


def replacement_curves(
    data: RatingData,
    model: Mapping[str, Any],
    confidence: Mapping[str, float],
    level: str,
    *,
    fractions: Sequence[float] = FRACTIONS,
    repetitions: int = 100,
    seed: int = 0,
) -> dict[str, ReplacementCurve]:
    """Curves for both selection strategies (``confidence`` and ``random``).

    ``model`` maps item ids to the model's rating, ``confidence`` to the probability of that
    rating. Only items with a model rating, a confidence and at least one human rating can be
    chosen; x% means x% of those items.
    """
    panel = _HumanPanel(data, level)
    candidates_arr, values_arr, scores_arr = replaceable_items(panel, data, model, confidence)
    rng = np.random.default_rng(seed)
    curves = {}
    for strategy in STRATEGIES:
        means, lows, highs, counts = [], [], [], []
        for fraction in fractions:
            count = round(fraction * len(candidates_arr))
            edited = np.repeat(panel.codes[None], repetitions, axis=0)
            for repetition in range(repetitions):
                if strategy == "confidence":
                    # highest confidence first; ties broken at random in each repetition
                    order = np.lexsort((rng.random(len(scores_arr)), -scores_arr))[:count]
                else:
                    order = rng.choice(len(candidates_arr), size=count, replace=False)
                panel.replace(edited[repetition], candidates_arr[order], values_arr[order], rng)
            draws = panel.mean_alpha_batch(edited)
            means.append(float(np.nanmean(draws)))
            low, high = np.nanpercentile(draws, [2.5, 97.5])
            lows.append(float(low))
            highs.append(float(high))
            counts.append(count)
        curves[strategy] = ReplacementCurve(
            strategy, tuple(fractions), tuple(means), tuple(lows), tuple(highs), tuple(counts)
        )
    return curves


def replaceable_items(
    panel: _HumanPanel,
    data: RatingData,
    model: Mapping[str, Any],
    confidence: Mapping[str, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The items a model rating can replace a human one in (columns), the model's ratings as
    scale positions and its confidences: items with a readable model rating, a confidence and
    at least one human rating."""
    column = {item_id: j for j, item_id in enumerate(data.item_ids)}
    candidates, values, scores = [], [], []
    for item_id, raw in model.items():
        j = column.get(item_id)
        value = data.scale.parse(raw) if j is not None else None
        if j is None or value is None or item_id not in confidence:
            continue
        if not len(panel.raters_by_item[j]):
            continue
        candidates.append(j)
        values.append(data.scale.values.index(value))
        scores.append(float(confidence[item_id]))
    if not candidates:
        raise ValueError("the model rated none of the items humans rated")
    return np.asarray(candidates), np.asarray(values), np.asarray(scores)


def largest_safe_fraction(curve: ReplacementCurve, band: HumanBand) -> float:
    """The largest fraction such that the curve's mean lies inside the human band at it and at
    every smaller fraction, and above chance (alpha > 0: a band that reaches below chance would
    call a rater that disagrees with everyone safe); 0.0 when even the smallest fraction
    fails."""
    safe = 0.0
    for fraction, mean in sorted(zip(curve.fractions, curve.mean, strict=True)):
        if not band.low <= mean <= band.high or mean <= 0:
            break
        safe = fraction
    return safe


def effort_saved(fraction: float, ratings_per_item: float) -> dict[str, float]:
    """Table II: the share of one rating per item that the model takes over (``one_rating``)
    and the share of the whole annotation effort that is (``overall``)."""
    if ratings_per_item <= 0:
        raise ValueError("ratings_per_item must be positive")
    return {"one_rating": fraction, "overall": fraction / ratings_per_item}


def majority_agreement(
    data: RatingData,
    model: Mapping[str, Any],
    confidence: Mapping[str, float],
    *,
    fractions: Sequence[float] = FRACTIONS,
) -> list[dict[str, float]]:
    """Per fraction of the most confident items: the share where the model's rating is the
    rating of more than half of the item's human raters."""
    humans = data.raters_of(HUMAN)
    ranked = []
    for item_id, raw in model.items():
        value = data.scale.parse(raw)
        given = [data.ratings[r][item_id] for r in humans if item_id in data.ratings[r]]
        if value is None or item_id not in confidence or not given:
            continue
        agrees = sum(v == value for v in given) * 2 > len(given)
        ranked.append((-float(confidence[item_id]), item_id, agrees))
    ranked.sort()
    rows = []
    for fraction in fractions:
        top = ranked[: max(1, round(fraction * len(ranked)))]
        rows.append(
            {"fraction": fraction, "items": len(top), "agree": float(np.mean([a for *_, a in top]))}
        )
    return rows


def model_agreement_correlation(
    model_model: Sequence[float], human_model: Sequence[float]
) -> dict[str, float]:
    """Spearman's rho (and its p-value, scipy) between mean MM and mean HM agreement of tasks."""
    from scipy.stats import spearmanr

    result = spearmanr(model_model, human_model)
    return {"rho": float(result.statistic), "p": float(result.pvalue), "tasks": len(model_model)}
