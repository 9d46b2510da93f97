"""Judge-vs-human agreement for the comparison variant: verdicts, order swaps, position bias.

Each input has several responses; every ordered pair (first, second) is judged, so each
unordered pair is judged twice, once in each order. A verdict is 1 (first better), -1 (second
better) or 0 (tie); G-Eval's probability-weighted verdicts lie in between and become a tie when
their magnitude is below ``judge_tie_threshold``. The human verdict of a pair comes from the
difference of the two human scores, a tie when it is below ``human_tie_threshold``. The defaults
(0.7 and 0.5) are the study's.

A consistent judge gives opposite verdicts in the two orders. When it gives the same non-tie
verdict in both, it preferred a position, not a response: that is the position-bias rate. The
order-swapped verdict keeps a verdict only when both orders agree and is a tie otherwise.

The study's own "agreement" statistic counts the unordered pairs whose two verdicts are *equal*
(``utils/corr.py``), which is true of a judge that always picks the first response and false of a
consistent one: it is reported here as ``study_same_verdict_rate`` for reference only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

HUMAN_TIE_THRESHOLD = 0.5
JUDGE_TIE_THRESHOLD = 0.7


def verdict(value: float, tie_threshold: float) -> int:
    """1, -1 or 0 (tie) from a signed preference; ``|value| < tie_threshold`` is a tie."""
    if -tie_threshold < value < tie_threshold:
        return 0
    return 1 if value > 0 else -1


@dataclass
class ComparisonReport:
    """Agreement of one judge's pairwise verdicts with the human preferences on one task."""

    n_units: int
    n_unscored: int
    accuracy: float
    accuracy_without_human_ties: float
    n_pairs_both_orders: int
    consistency_rate: float
    position_bias_rate: float
    first_position_share: float
    swapped_accuracy: float
    swapped_accuracy_without_human_ties: float
    study_same_verdict_rate: float

    @property
    def unscored_rate(self) -> float:
        return self.n_unscored / self.n_units if self.n_units else math.nan

    def as_dict(self) -> dict:
        return {**asdict(self), "unscored_rate": self.unscored_rate}


def _rate(hits: int, total: int) -> float:
    return hits / total if total else math.nan


def compare_with_human(
    judge: Sequence[float | None],
    human: Sequence[float],
    pairs: Sequence[tuple[int, int, int]],
    *,
    human_tie_threshold: float = HUMAN_TIE_THRESHOLD,
    judge_tie_threshold: float = JUDGE_TIE_THRESHOLD,
) -> ComparisonReport:
    """Score a judge's verdicts on ordered pairs ``(input id, first, second)`` against the humans.

    ``judge`` and ``human`` hold one value per ordered pair; ``None`` marks an unscored judgment
    (a reply that did not parse), left out of every rate and counted in ``n_unscored``.
    """
    if not len(judge) == len(human) == len(pairs):
        raise ValueError(
            f"lengths differ: {len(judge)} verdicts, {len(human)} human values, {len(pairs)} pairs"
        )
    judged = [None if v is None else verdict(v, judge_tie_threshold) for v in judge]
    wanted = [verdict(h, human_tie_threshold) for h in human]
    scored = [(j, h) for j, h in zip(judged, wanted, strict=True) if j is not None]
    decided = [(j, h) for j, h in scored if h != 0]

    position = {(first, second): n for n, (_, first, second) in enumerate(pairs)}
    both_orders = [
        (n, position[(second, first)])
        for n, (_, first, second) in enumerate(pairs)
        if first < second and (second, first) in position
    ]
    complete = [(a, b) for a, b in both_orders if judged[a] is not None and judged[b] is not None]
    consistent = sum(judged[a] == -(judged[b] or 0) for a, b in complete)  # b is not None
    biased = [(a, b) for a, b in complete if judged[a] == judged[b] != 0]
    first_preferred = sum(judged[a] == 1 for a, _ in biased)
    same = sum(judged[a] == judged[b] for a, b in complete)

    swapped = [(judged[a] if judged[a] == -(judged[b] or 0) else 0, wanted[a]) for a, b in complete]
    swapped_decided = [(j, h) for j, h in swapped if h != 0]
    return ComparisonReport(
        n_units=len(judge),
        n_unscored=sum(j is None for j in judged),
        accuracy=_rate(sum(j == h for j, h in scored), len(scored)),
        accuracy_without_human_ties=_rate(sum(j == h for j, h in decided), len(decided)),
        n_pairs_both_orders=len(complete),
        consistency_rate=_rate(consistent, len(complete)),
        position_bias_rate=_rate(len(biased), len(complete)),
        first_position_share=_rate(first_preferred, len(biased)),
        swapped_accuracy=_rate(sum(j == h for j, h in swapped), len(swapped)),
        swapped_accuracy_without_human_ties=_rate(
            sum(j == h for j, h in swapped_decided), len(swapped_decided)
        ),
        study_same_verdict_rate=_rate(same, len(complete)),
    )
