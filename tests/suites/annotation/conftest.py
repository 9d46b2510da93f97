"""Fixtures for the annotation suite: scales and a small hand-made rating set."""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.suites.annotation.ratings import RatingItem, RawRating, assemble
from seebench.suites.annotation.scale import Scale

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
