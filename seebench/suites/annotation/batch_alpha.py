"""Krippendorff's alpha of one pair of raters over many replicates at once.

The bootstrap band and the replacement curves need the alpha of every rater pair on a
thousand resampled or edited versions of the same items. ``krippendorff.alpha`` computes one
alpha per call; here the coincidence matrices of all replicates are built in one array
operation and the library's own distance functions and formula are applied to each, so the
numbers are those of ``krippendorff.alpha(value_counts=...)`` (tests compare the two).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import numpy as np

if TYPE_CHECKING:
    from seebench.suites.annotation.scale import Level


def _distance_function(level: str):
    from krippendorff.krippendorff import _distance_metric

    return _distance_metric(cast("Level", level))


def _distances(domain: np.ndarray, level: str, n_v: np.ndarray) -> np.ndarray:
    from krippendorff.krippendorff import _distances as library_distances

    return library_distances(domain, _distance_function(level), n_v)


def pair_alpha_batch(
    first: np.ndarray, second: np.ndarray, level: str, domain: Sequence[float]
) -> np.ndarray:
    """Alpha of two raters in each of R replicates.

    ``first`` and ``second`` are R x n arrays of scale positions (indices into ``domain``) on
    the items both raters rated; -1 leaves an item out of that replicate. Returns R alphas,
    NaN where alpha is undefined (fewer than two items or a single value used).
    """
    first = np.atleast_2d(first)
    second = np.atleast_2d(second)
    size = len(domain)
    replicates = len(first)
    present = (first >= 0) & (second >= 0)
    row = np.broadcast_to(np.arange(replicates)[:, None], first.shape)[present]
    a, b = first[present], second[present]
    # two ratings per item: its coincidences are the ordered pairs (a, b) and (b, a)
    pair_counts = np.bincount(
        np.concatenate([(row * size + a) * size + b, (row * size + b) * size + a]),
        minlength=replicates * size * size,
    )
    coincidences = pair_counts.reshape(replicates, size, size).astype(float)
    n_v = coincidences.sum(axis=2)  # R x V: pairable values
    identity = np.eye(size)
    total = n_v.sum(axis=1)
    expected = (n_v[:, :, None] * n_v[:, None, :] - n_v[:, :, None] * identity) / np.maximum(
        total - 1, 1
    )[:, None, None]
    values = np.asarray(domain, dtype=float)
    if level == "ordinal":  # the distances depend on the value counts of each replicate
        distances = np.stack([_distances(values, level, counts) for counts in n_v])
    else:
        distances = np.broadcast_to(_distances(values, level, n_v[0]), coincidences.shape)
    observed = (coincidences * distances).sum(axis=(1, 2))
    chance = (expected * distances).sum(axis=(1, 2))
    defined = (present.sum(axis=1) >= 2) & (np.count_nonzero(n_v, axis=1) >= 2) & (chance > 0)
    alpha = np.full(len(first), np.nan)
    alpha[defined] = 1.0 - observed[defined] / chance[defined]
    return alpha
