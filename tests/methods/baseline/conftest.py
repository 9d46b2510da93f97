"""Tiny text tasks of every baseline task type, written into ``tmp_path``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.index import build_task_index
from tests.conftest import write_task
from tests.plugins import tmp_tasks_plugin

WORDS = {
    "fix": ["crash", "error", "fails", "broken", "leak"],
    "feature": ["add", "support", "new", "allow", "implement"],
    "refactor": ["rename", "extract", "simplify", "move", "clean"],
}
FILLER = [f"word{i}" for i in range(60)]  # (a tiny, repetitive vocabulary makes fastText diverge)


def _text(rng: random.Random, kinds: list[str]) -> str:
    words = [rng.choice(WORDS[k]) for k in kinds for _ in range(2)] + rng.sample(
        FILLER, rng.randint(3, 9)
    )
    rng.shuffle(words)
    return " ".join(words)


def _rows(task_type: str, n: int, seed: int = 3) -> list[dict]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        if task_type == "binary":
            kind = rng.choice(["fix", "feature"])
            rows.append({"text": _text(rng, [kind]), "label": "bug" if kind == "fix" else "other"})
        elif task_type == "multiclass":
            kind = rng.choice(list(WORDS))
            rows.append({"text": _text(rng, [kind]), "label": kind})
        elif task_type == "multilabel":
            kinds = [k for k in WORDS if rng.random() < 0.5] or [list(WORDS)[i % 3]]
            rows.append({"text": _text(rng, kinds), "label": kinds})
        else:
            k = rng.randint(1, 4)
            rows.append(
                {
                    "text": " ".join(["crash"] * k + rng.sample(FILLER, rng.randint(3, 9))),
                    "label": float(2 * k),
                }
            )
    return rows


LABELS = {
    "binary": "labels: [{name: bug}, {name: other}]",
    "multiclass": "labels: [{name: fix}, {name: feature}, {name: refactor}]",
    "multilabel": "labels: [{name: fix}, {name: feature}, {name: refactor}]",
    "regression": "value_range: [0, 10]",
}
METRIC = {"regression": "one_minus_smape"}


def make_task(directory: Path, task_type: str, n: int = 120) -> Path:
    """A ``tiny_<type>`` task with ``n`` JSONL rows and a 60/10/20-ish split."""
    name = f"tiny_{task_type}"
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / f"{name}.jsonl", "w") as handle:
        for row in _rows(task_type, n):
            handle.write(json.dumps(row) + "\n")
    return write_task(
        directory,
        name,
        f"""
    name: {name}
    suite: tmp
    version: 1
    type: {task_type}
    {LABELS[task_type]}
    data:
      sources:
        - {{path: {name}.jsonl, format: jsonl}}
      prepare:
        - {{step: select, columns: {{input: text, target: label}}}}
    split: {{test_size: 0.25, validation_size: 0.2, seed: 5}}
    metrics: [{METRIC.get(task_type, "f1_macro")}]
    """,
    )


@pytest.fixture
def tiny_env(tmp_path, monkeypatch):
    """(registry, task index, output dir) with one tiny task of each baseline task type."""
    tasks = tmp_path / "tasks"
    for task_type in ("binary", "multiclass", "multilabel", "regression"):
        make_task(tasks, task_type)
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    pm = create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
    registry = build_registry(pm)
    return registry, build_task_index(registry), tmp_path / "out"
