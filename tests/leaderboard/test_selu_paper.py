"""The published reproduction in leaderboard/selu-paper/ still matches what the code computes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.leaderboard.inputs import read_inputs
from seebench.plugin_manager import get_registry
from seebench.stats import Settings, compare_models
from tests.leaderboard.builders import SELU_CSV

PUBLISHED = Path(__file__).resolve().parents[2] / "leaderboard" / "selu-paper"


def test_published_reproduction_is_current() -> None:
    data = json.loads((PUBLISHED / "leaderboard.json").read_text())
    assert data["settings"]["ci_correction"] == "autorank"
    matrix = read_inputs([SELU_CSV]).to_matrix(get_registry()).complete()
    # few draws suffice: the ranking, intervals and effect sizes do not depend on them
    report = compare_models(matrix, Settings(ci_correction="autorank", nsamples=500))
    assert [r["model"] for r in data["ranking"]] == list(report.models)
    for published, row in zip(data["ranking"], report.rows, strict=True):
        for key in ("center", "spread", "ci_lower", "ci_upper", "effect_size"):
            assert published[key] == pytest.approx(getattr(row, key), abs=1e-9), (row.model, key)
    assert len(data["pairs"]) == 378


def test_published_files_are_all_there() -> None:
    expected = {
        "README.md",
        "leaderboard.md",
        "leaderboard.tex",
        "leaderboard.csv",
        "pairs.csv",
        "breakdown.csv",
        "leaderboard.json",
        "per_task.csv",
        "per_task.md",
        "index.html",
        *(
            f"{n}.{e}"
            for n in ("posterior_better", "posterior_equal", "decisions")
            for e in ("png", "svg")
        ),
    }
    assert {p.name for p in PUBLISHED.iterdir()} == expected
