"""Two units of one task, item by item: pairing, disagreements first, the paired difference.

Items pair by (sample id, repeat). Two answers disagree when their scores differ (or, when
neither has a score, their predicted labels differ). The paired difference is the mean of
score(A) − score(B) over the items both scored, with a 95% t interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from seebench.view.index import DAMAGED, SampleIndex


@dataclass(frozen=True)
class PairedStats:
    """The paired difference of A and B over the items both scored."""

    n: int
    disagree: int
    mean: float | None
    ci: tuple[float, float] | None
    only_a: int
    only_b: int


@dataclass(frozen=True)
class Pairing:
    """Aligned line numbers of A and B, ordered with the disagreements first."""

    lines_a: np.ndarray
    lines_b: np.ndarray
    disagree: np.ndarray  # bool, aligned
    stats: PairedStats


def pair(a: SampleIndex, b: SampleIndex) -> Pairing:
    """Pair the items of ``a`` and ``b``; see the module docstring."""
    la, lb = _join(a, b)
    sa, sb = a.score[la], b.score[lb]
    both = ~np.isnan(sa) & ~np.isnan(sb)
    neither = np.isnan(sa) & np.isnan(sb)
    disagree = np.where(neither, a.pred[la] != b.pred[lb], ~both | (sa != sb))
    disagree &= ~(neither & (a.pred[la] == b.pred[lb]))
    order = np.concatenate([np.flatnonzero(disagree), np.flatnonzero(~disagree)])
    diffs = (sa - sb)[both]
    mean, ci = None, None
    if len(diffs):
        mean = float(diffs.mean())
        if len(diffs) > 1:
            from scipy.special import stdtrit  # the t quantile (scipy.stats imports in seconds)

            se = float(diffs.std(ddof=1)) / math.sqrt(len(diffs))
            half = float(stdtrit(len(diffs) - 1, 0.975)) * se
            ci = (mean - half, mean + half)
    paired = PairedStats(
        n=len(la),
        disagree=int(disagree.sum()),
        mean=mean,
        ci=ci,
        only_a=int((a.flags & DAMAGED == 0).sum()) - len(la),
        only_b=int((b.flags & DAMAGED == 0).sum()) - len(lb),
    )
    return Pairing(la[order], lb[order], disagree[order], paired)


def _keys(index: SampleIndex) -> tuple[np.ndarray, np.ndarray]:
    """The (id, repeat) key of every intact line, and those lines."""
    lines = np.flatnonzero((index.flags & DAMAGED) == 0)
    ids = index.ids[lines]
    if index.repeats.any():
        width = ids.dtype.itemsize + 11
        ids = np.char.add(
            np.char.add(ids.astype(f"S{width}"), b"\0"), index.repeats[lines].astype("S10")
        )
    return ids, lines


def _join(a: SampleIndex, b: SampleIndex) -> tuple[np.ndarray, np.ndarray]:
    """Aligned lines of ``a`` and ``b`` holding the same item (``a``'s order), vectorised:
    ``b``'s keys sorted once, ``a``'s looked up by binary search."""
    keys_a, lines_a = _keys(a)
    keys_b, lines_b = _keys(b)
    if not len(keys_a) or not len(keys_b):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    width = max(keys_a.dtype.itemsize, keys_b.dtype.itemsize)
    keys_a, keys_b = keys_a.astype(f"S{width}"), keys_b.astype(f"S{width}")
    order = np.argsort(keys_b, kind="stable")
    sorted_b = keys_b[order]
    where = np.searchsorted(sorted_b, keys_a)
    where = np.minimum(where, len(sorted_b) - 1)
    found = sorted_b[where] == keys_a
    return lines_a[found].astype(np.int64), lines_b[order[where[found]]].astype(np.int64)
