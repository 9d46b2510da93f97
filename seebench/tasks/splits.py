"""Train/validation/test splitting primitives: seeded random, stratified and iterative
(multi-label) hold-outs, and the values of published split files. Which one a task gets is
its type's choice (:meth:`seebench.tasks.types.TaskType.hold_out`); reading a split file is
the data layer's (:mod:`seebench.data.split_files`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

#: SELU's split files: 1 = train, 0 = validation, 2 = test.
DEFAULT_SPLIT_FILE_VALUES = {"1": "train", "0": "validation", "2": "test"}


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


def iterative_stratified_split(
    items: Sequence[Any], label_sets: Sequence[Sequence[Any]], test_size: float, seed: int
) -> tuple[list[Any], list[Any]]:
    """Multi-label hold-out by iterative stratification (Sechidis et al., 2011).

    Repeatedly takes the label with the fewest remaining examples and deals its examples to
    the subset that most lacks that label (ties: the subset that lacks most examples, then a
    seeded coin). Keeps each label's share in both subsets close to the full set's. Items
    without any label are dealt by the same rule on the subsets' overall demand.
    """
    n_test = _n_test(len(items), test_size)
    if n_test == 0:
        return list(items), []
    rng = random.Random(seed)
    ratios = ((len(items) - n_test) / len(items), n_test / len(items))
    desired = [ratios[0] * len(items), ratios[1] * len(items)]
    remaining: dict[Any, set[int]] = {}
    for index, labels in enumerate(label_sets):
        for label in set(labels):
            remaining.setdefault(label, set()).add(index)
    label_desired = {
        label: [ratios[0] * len(ix), ratios[1] * len(ix)] for label, ix in remaining.items()
    }
    assigned: list[int | None] = [None] * len(items)
    unassigned = set(range(len(items)))
    label_order = sorted(remaining, key=str)

    def deal(index: int, demand: list[float]) -> None:
        best = max(demand)
        candidates = [s for s in (0, 1) if demand[s] == best]
        if len(candidates) > 1:
            most = max(desired[s] for s in candidates)
            candidates = [s for s in candidates if desired[s] == most]
        subset = candidates[0] if len(candidates) == 1 else rng.choice(candidates)
        assigned[index] = subset
        unassigned.discard(index)
        desired[subset] -= 1
        for label in set(label_sets[index]):
            label_desired[label][subset] -= 1
            remaining[label].discard(index)

    while any(remaining[label] for label in label_order):
        label = min((lb for lb in label_order if remaining[lb]), key=lambda lb: len(remaining[lb]))
        indices = sorted(remaining[label])
        rng.shuffle(indices)
        for index in indices:
            if assigned[index] is None:
                deal(index, label_desired[label])
    rest = sorted(unassigned)
    rng.shuffle(rest)
    for index in rest:
        deal(index, desired)
    train = [item for i, item in enumerate(items) if assigned[i] == 0]
    test = [item for i, item in enumerate(items) if assigned[i] == 1]
    return train, test


def split_file_assignment(values: Sequence[Any], mapping: dict[str, str], where: str) -> list[str]:
    """Split names for the values of a published split column (e.g. SELU's ``fold_1``:
    ``1`` train, ``0`` validation, ``2`` test); ``where`` names the file in errors."""
    names = []
    for number, value in enumerate(values):
        key = str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
        if key not in mapping:
            raise ValueError(
                f"{where}: row {number + 1} has split value {value!r}; expected one of {sorted(mapping)}"
            )
        names.append(mapping[key])
    return names
