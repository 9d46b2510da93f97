"""``seebench compare`` and ``--limit`` runs: left out, each named, unless --include-limited."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from seebench.cli.main import main
from tests.leaderboard.builders import write_result_dir

TASKS = ("bug_issue", "functional_requirement", "incivility", "closed_question")
SCORES = {"A": (0.9, 0.8, 0.85, 0.7), "B": (0.6, 0.5, 0.55, 0.4), "C": (0.3, 0.35, 0.2, 0.25)}


def _results(tmp_path: Path, limited_model: str | None) -> Path:
    table = tmp_path / "scores.csv"
    with table.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["model", "task", "task_type", "score"])
        for model, scores in SCORES.items():
            for task, score in zip(TASKS, scores, strict=True):
                kind = "multi-class" if task == "closed_question" else "binary"
                writer.writerow([model, task, kind, score])
    root = write_result_dir(tmp_path / "results", table)
    if limited_model:
        for path in (root / limited_model.lower() / "fine-tune").glob("*.json"):
            result = json.loads(path.read_text())
            result["run"] = {"limit": 5, "seed": 42}
            path.write_text(json.dumps(result))
    return root


def _compare(root: Path, out: Path, *extra: str) -> int:
    argv = ["compare", str(root), "--out", str(out), "--nsamples", "200", "--format", "csv"]
    with pytest.raises(SystemExit) as done:
        main([*argv, *extra])
    return int(done.value.code or 0)


def _ranked(out: Path) -> set[str]:
    with (out / "leaderboard.csv").open(newline="") as handle:
        return {row["model"] for row in csv.DictReader(handle)}


def test_a_limit_run_is_left_out_and_named(tmp_path, capsys):
    root = _results(tmp_path, "C")
    assert _compare(root, tmp_path / "lb") == 0
    err = capsys.readouterr().err
    for task in TASKS:
        assert f"note: left out C/fine-tune on {task} (--limit 5)" in err
    assert _ranked(tmp_path / "lb") == {"A/fine-tune", "B/fine-tune"}


def test_include_limited_ranks_it_with_a_warning(tmp_path, capsys):
    root = _results(tmp_path, "C")
    assert _compare(root, tmp_path / "lb", "--include-limited") == 0
    err = capsys.readouterr().err
    assert "warning: ranking C/fine-tune on bug_issue from a --limit 5 run" in err
    assert "note: left out C/fine-tune" not in err
    assert _ranked(tmp_path / "lb") == {"A/fine-tune", "B/fine-tune", "C/fine-tune"}


def test_full_runs_give_no_limit_note(tmp_path, capsys):
    assert _compare(_results(tmp_path, None), tmp_path / "lb") == 0
    assert "--limit" not in capsys.readouterr().err
    assert len(_ranked(tmp_path / "lb")) == 3
