"""BatchEval's schedule: grade responses in batches over several rounds, re-sorting in between.

Round 1 deals the responses into batches in a seeded random order. Every later round sorts the
responses by their mean grade so far and deals them so that each batch spans the whole range
(batch b takes ranks b, b + B, b + 2B, ...), then shuffles each batch: a response is compared
with different, heterogeneous neighbours each round. The final grade is the mean of a
response's scored rounds (the study kept only its last round's grade).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

BATCH_SIZE = 10
ROUNDS = 5


def schedule_round(
    scores_so_far: Sequence[Sequence[float | None]],
    *,
    batch_size: int = BATCH_SIZE,
    round_index: int,
    seed: int = 0,
) -> list[list[int]]:
    """The batches (lists of response positions) of one round.

    ``scores_so_far[i]`` holds response ``i``'s grades from earlier rounds (``None`` when a
    round left it unscored). Every response appears in exactly one batch.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, not {batch_size}")
    count = len(scores_so_far)
    rng = random.Random(f"{seed}:{round_index}")
    if round_index == 0:
        order = list(range(count))
        rng.shuffle(order)
        return [order[i : i + batch_size] for i in range(0, count, batch_size)]
    means = [_mean(scores) for scores in scores_so_far]
    # unscored responses rank in the middle, ties in a seeded order
    middle = _mean([m for m in means if m is not None]) or 0.0
    tiebreak = [rng.random() for _ in range(count)]
    filled = [mean if mean is not None else middle for mean in means]
    ranked = sorted(range(count), key=lambda i: (-filled[i], tiebreak[i]))
    n_batches = math.ceil(count / batch_size)
    batches = [ranked[b::n_batches] for b in range(n_batches)]
    for batch in batches:
        rng.shuffle(batch)
    return batches


def final_scores(scores_so_far: Sequence[Sequence[float | None]]) -> list[float | None]:
    """Each response's mean over its scored rounds (``None`` if no round scored it)."""
    return [_mean(scores) for scores in scores_so_far]


def _mean(values: Sequence[float | None]) -> float | None:
    scored = [v for v in values if v is not None]
    return sum(scored) / len(scored) if scored else None
