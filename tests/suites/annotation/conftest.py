"""Fixtures for the annotation suite: scales, a small hand-made rating set, and a toy ratings
task (30 items, three raters, a hint of the truth in each item) in a fresh registry."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.suites.annotation.ratings import RatingItem, RawRating, assemble
from seebench.suites.annotation.scale import Scale
from tests.plugins import tmp_tasks_plugin

SHARED_ANNOTATION = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "annotation"
DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def likert4() -> Scale:
    return Scale.from_config(
        [[1, "Strongly disagree"], [2, "Disagree"], [3, "Agree"], [4, "Strongly agree"]]
    )


@pytest.fixture
def small_data(likert4):
    """Three human raters on six items; rater c skips item i6."""
    table = {
        "a": [1, 2, 3, 4, 4, 2],
        "b": [1, 2, 4, 4, 3, 2],
        "c": [2, 2, 3, 3, 4, None],
    }
    items = [RatingItem(f"i{k}", {"text": f"item {k}"}) for k in range(1, 7)]
    raw = [
        RawRating(f"i{k}", rater, value, f"fixture {rater} {k}")
        for rater, values in table.items()
        for k, value in enumerate(values, 1)
    ]
    return assemble(items, raw, likert4, "interval")


TASK = """
name: toy_ratings
suite: tmp
version: 1
type: ratings
data:
  sources:
  - {path: ratings.csv, format: csv}
  prepare:
  - step: annotation_ratings
    layout: long
    level: interval
    scale: [{value: 1, label: bad}, {value: 2, label: poor}, {value: 3, label: good}, {value: 4, label: great}]
    options: {item: [item], rater: rater, rating: score, fields: [hint, conf]}
split: {method: none}
model_rater: {applicable: true}
prompt: {context: Toy items., task: Rate the item., answer_format: Reply with a number., entity: item}
"""


@pytest.fixture
def toy_env(tmp_path, monkeypatch):
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    lines = ["item,rater,score,hint,conf"]
    for k in range(30):
        truth = 1 + k % 4
        hint = truth if k % 3 else "none"
        for rater, noise in (("h1", 0), ("h2", k % 5 == 0), ("h3", k % 7 == 0)):
            lines.append(
                f"i{k},{rater},{min(4, truth + int(noise))},{hint},{0.95 if k % 3 else 0.4}"
            )
    (tasks / "ratings.csv").write_text("\n".join(lines) + "\n")
    (tasks / "toy_ratings.yaml").write_text(textwrap.dedent(TASK))
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    registry = build_registry(
        create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
    )
    return registry, tmp_path / "out"
