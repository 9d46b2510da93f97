"""Fixtures for the judge suite's tests: the released study files on the data mirror
(``../shared/data/llm_judge`` beside the repository; tests that need it skip without it)."""

from __future__ import annotations

import csv
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from seebench.suites.judge.readers import ReleasedTask, load_released_task

SHARED_JUDGE = Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "llm_judge"
DATA = Path(__file__).parent / "data"


@cache
def _load(name: str) -> ReleasedTask:
    return load_released_task(SHARED_JUDGE.resolve() / name)


@pytest.fixture
def mirror() -> Path:
    """The mirror's ``llm_judge`` folder; skips the test when it is absent."""
    if not SHARED_JUDGE.is_dir():
        pytest.skip("no ../shared/data/llm_judge mirror")
    return SHARED_JUDGE.resolve()


@pytest.fixture
def released(mirror) -> Callable[[str], ReleasedTask]:
    """``released(name)``: one released task, read once per test session."""
    return _load


@pytest.fixture
def published_correlations() -> list[dict[str, str]]:
    """The reference correlations of ``data/published_correlations.csv`` (see its README)."""
    with open(DATA / "published_correlations.csv", newline="") as handle:
        return list(csv.DictReader(handle))
