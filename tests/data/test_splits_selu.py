"""Hold-out splits: seeded determinism, iterative stratification, published split files."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from seebench.data.cache import sha256_file, store_file
from seebench.data.dataset import DataError, Sample, split_samples
from seebench.errors import DataMissingError
from seebench.plugin_manager import get_registry
from seebench.tasks.splits import iterative_stratified_split, split_file_assignment
from seebench.tasks.validate import load_task
from tests.conftest import write_task

LABELS = ["summary", "usage", "expand", "pointer", "rationale", "deprecation", "ownership"]


def multilabel_sets(n: int, seed: int = 3) -> list[list[str]]:
    """Skewed, co-occurring label sets like the code-comment tasks (some rows unlabelled)."""
    rng = random.Random(seed)
    weights = [0.35, 0.3, 0.2, 0.12, 0.08, 0.04, 0.02]
    sets = []
    for _ in range(n):
        chosen = [label for label, w in zip(LABELS, weights, strict=True) if rng.random() < w]
        if "usage" in chosen and rng.random() < 0.5:
            chosen.append("pointer")
        sets.append(sorted(set(chosen)))
    return sets


def frequencies(sets: list[list[str]]) -> dict[str, float]:
    counts = Counter(label for s in sets for label in s)
    return {label: counts[label] / len(sets) for label in LABELS}


def test_iterative_stratification_keeps_label_frequencies_within_two_points() -> None:
    sets = multilabel_sets(2000)
    items = list(range(len(sets)))
    train, test = iterative_stratified_split(items, sets, 0.2, seed=42)
    assert len(test) == 400 and len(train) == 1600 and sorted(train + test) == items
    full, test_freq, train_freq = (
        frequencies(sets),
        frequencies([sets[i] for i in test]),
        frequencies([sets[i] for i in train]),
    )
    for label in LABELS:
        assert abs(test_freq[label] - full[label]) < 0.02, label
        assert abs(train_freq[label] - full[label]) < 0.02, label
    rare = [i for i in items if "ownership" in sets[i]]
    assert any(i in test for i in rare) and any(i in train for i in rare)


def test_iterative_stratification_beats_a_random_split_on_rare_labels() -> None:
    sets = multilabel_sets(600, seed=9)
    _, test = iterative_stratified_split(list(range(600)), sets, 0.2, seed=1)
    full = frequencies(sets)
    got = frequencies([sets[i] for i in test])
    assert max(abs(got[label] - full[label]) for label in LABELS) < 0.015


def _samples(task_type: str, n: int = 300) -> list[Sample]:
    rng = random.Random(5)
    if task_type == "multilabel":
        targets = multilabel_sets(n)
    else:
        targets = [rng.choice(["yes", "yes", "no"]) for _ in range(n)]
    return [Sample(f"s{i}", f"text {i}", t) for i, t in enumerate(targets)]


def _task(tmp_path: Path, task_type: str, extra: str = ""):
    labels = LABELS if task_type == "multilabel" else ["yes", "no"]
    label_yaml = "\n".join(f"  - name: '{name}'" for name in labels)
    path = write_task(
        tmp_path,
        f"t_{task_type}",
        f"""
        name: t_{task_type}
        suite: test
        version: 1
        type: {task_type}
        labels:
        {label_yaml}
        data:
          sources:
            - {{path: rows.jsonl, format: jsonl}}
        metrics: [f1_macro]
        {extra}
        """.replace("\n        ", "\n"),
    )
    return load_task(path, get_registry())


def _dump(splits: dict[str, list[Sample]]) -> bytes:
    return json.dumps({k: [(s.id, s.target) for s in v] for k, v in splits.items()}).encode()


@pytest.mark.parametrize("task_type", ["binary", "multilabel"])
def test_same_seed_gives_byte_identical_splits(tmp_path: Path, task_type: str) -> None:
    task = _task(tmp_path, task_type)
    first = _dump(split_samples(task, _samples(task_type), seed=42))
    again = _dump(split_samples(task, list(_samples(task_type)), seed=42))
    other = _dump(split_samples(task, _samples(task_type), seed=43))
    assert first == again
    assert first != other


def test_binary_holdout_is_stratified_with_a_validation_part(tmp_path: Path) -> None:
    task = _task(tmp_path, "binary")
    samples = _samples("binary")
    splits = split_samples(task, samples, seed=42)
    assert [len(splits[k]) for k in ("train", "validation", "test")] == [216, 24, 60]
    share = sum(s.target == "yes" for s in samples) / len(samples)
    assert abs(sum(s.target == "yes" for s in splits["test"]) / 60 - share) < 0.02


def _write_split_file(directory: Path, codes: list[int]) -> tuple[str, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "t.k-fold.5k.csv"
    path.write_text("fold_1,fold_2\n" + "".join(f"{c},1\n" for c in codes))
    return sha256_file(path), path


def test_split_file_reproduces_the_published_assignment(tmp_path: Path) -> None:
    codes = [1, 1, 0, 2, 1, 2, 1, 0, 1, 2] * 30
    digest, path = _write_split_file(tmp_path / "files", codes)
    task = _task(
        tmp_path,
        "binary",
        extra=(
            "split:\n  split_file:\n    url: https://example.org/t.k-fold.5k.csv\n"
            f"    sha256: {digest}\n    column: fold_1\n"
        ),
    )
    with pytest.raises(DataMissingError, match="t.k-fold.5k.csv"):
        split_samples(task, _samples("binary"), seed=42)
    store_file(path, digest)
    samples = _samples("binary")
    splits = split_samples(task, samples, seed=42)
    expected = {
        code: [s.id for s, c in zip(samples, codes, strict=True) if c == code] for code in (0, 1, 2)
    }
    assert [s.id for s in splits["train"]] == expected[1]
    assert [s.id for s in splits["validation"]] == expected[0]
    assert [s.id for s in splits["test"]] == expected[2]


def test_split_file_with_another_row_count_is_one_clear_error(tmp_path: Path) -> None:
    digest, path = _write_split_file(tmp_path / "files", [1, 2] * 10)
    store_file(path, digest)
    task = _task(
        tmp_path,
        "binary",
        extra=(
            "split:\n  split_file:\n    url: https://example.org/t.k-fold.5k.csv\n"
            f"    sha256: {digest}\n"
        ),
    )
    with pytest.raises(DataError, match=r"has 20 rows but the prepared data has 300"):
        split_samples(task, _samples("binary"), seed=42)


def test_split_file_values_outside_the_mapping_name_the_row() -> None:
    assert split_file_assignment(
        [1, 0, 2.0], {"1": "train", "0": "validation", "2": "test"}, "f"
    ) == ["train", "validation", "test"]
    with pytest.raises(ValueError, match="f: row 2 has split value 7"):
        split_file_assignment([1, 7], {"1": "train"}, "f")
