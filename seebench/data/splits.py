"""Train/validation/test splits: seeded, stratified where the task type allows it."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

#: Splitters for a whole policy, by task type; plugins may add entries (e.g. multi-label
#: iterative stratification). ``splitter(samples, test_size, seed) -> (rest, test)``.
STRATIFIERS: dict[str, Callable[[Sequence[Any], float, int], tuple[list[Any], list[Any]]]] = {}

STRATIFIED_BY_DEFAULT = {"binary", "multiclass"}


def random_split(items: Sequence[Any], test_size: float, seed: int) -> tuple[list[Any], list[Any]]:
    """Shuffle with ``seed`` and cut off ``test_size`` of the items (at least one if possible)."""
    order = list(range(len(items)))
    random.Random(seed).shuffle(order)
    n_test = _n_test(len(items), test_size)
    test_idx = set(order[:n_test])
    rest = [item for i, item in enumerate(items) if i not in test_idx]
    test = [item for i, item in enumerate(items) if i in test_idx]
    return rest, test


def _n_test(n: int, test_size: float) -> int:
    if n < 2:
        return 0
    return min(n - 1, max(1, round(n * test_size)))


def stratified_split(
    items: Sequence[Any], labels: Sequence[Any], test_size: float, seed: int
) -> tuple[list[Any], list[Any]]:
    """Split keeping label proportions (scikit-learn); falls back to random when a class is
    too small to stratify."""
    from sklearn.model_selection import train_test_split

    n_test = _n_test(len(items), test_size)
    if n_test == 0:
        return list(items), []
    indices = list(range(len(items)))
    counts: dict[Any, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    if min(counts.values()) < 2 or n_test < len(counts) or len(items) - n_test < len(counts):
        return random_split(items, test_size, seed)
    rest_idx, test_idx = train_test_split(
        indices, test_size=n_test, random_state=seed, stratify=list(labels)
    )
    test_set = set(test_idx)
    return [items[i] for i in indices if i not in test_set], [items[i] for i in sorted(test_idx)]


def split_for_type(
    items: Sequence[Any],
    labels: Sequence[Any],
    task_type: str,
    test_size: float,
    seed: int,
    stratify: bool | str = "auto",
) -> tuple[list[Any], list[Any]]:
    """Hold-out split for one task type, honouring the ``stratify`` policy."""
    if stratify is False:
        return random_split(items, test_size, seed)
    if task_type in STRATIFIERS:
        return STRATIFIERS[task_type](items, test_size, seed)
    if task_type in STRATIFIED_BY_DEFAULT:
        return stratified_split(items, labels, test_size, seed)
    return random_split(items, test_size, seed)
