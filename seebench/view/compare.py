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
    position = {
        (str(i), int(r)): line
        for line, (i, r) in enumerate(zip(b.ids, b.repeats, strict=True))
        if not b.flags[line] & DAMAGED
    }
    lines_a, lines_b = [], []
    for line, (i, r) in enumerate(zip(a.ids, a.repeats, strict=True)):
        if a.flags[line] & DAMAGED:
            continue
        other = position.get((str(i), int(r)))
        if other is not None:
            lines_a.append(line)
            lines_b.append(other)
    la = np.asarray(lines_a, dtype=np.int64)
    lb = np.asarray(lines_b, dtype=np.int64)
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
            from scipy import stats

            se = float(diffs.std(ddof=1)) / math.sqrt(len(diffs))
            half = float(stats.t.ppf(0.975, len(diffs) - 1)) * se
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
