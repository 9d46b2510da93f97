"""Headline numbers say what they rest on: scored and excluded counts in the end-of-run table,
and a warning when a sample's golds are all one class."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from seebench.runner.caveats import single_class_caveat
from seebench.runner.progress import summary_table
from seebench.tasks.types import LABEL, NUMBER


def _row(**changes):
    row = {
        "model_id": "null",
        "method": "scenario",
        "task": "copilot_repo_test_python",
        "primary_metric": "repo_test_pass_rate",
        "metrics": {"repo_test_pass_rate": 0.8},
        "n": 195,
        "excluded": 190,
        "repeats": 1,
        "seconds": 1.0,
        "status": "ok",
        "reason": None,
        "note": None,
    }
    return SimpleNamespace(**{**row, **changes})


def _text(rows) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=160).print(summary_table(rows))
    return buffer.getvalue()


def test_the_table_shows_scored_and_excluded_counts() -> None:
    table = summary_table([_row(), _row(task="t2", excluded=0, n=10)])
    headers = [column.header for column in table.columns]
    assert headers[3:5] == ["n", "excl."]
    assert list(table.columns[3].cells) == ["5", "10"]
    assert list(table.columns[4].cells) == ["190", "0"]
    assert "0.8000" in _text([_row()])


def test_without_exclusions_the_table_has_no_excluded_column() -> None:
    table = summary_table([_row(excluded=0, n=12)])
    assert "excl." not in [column.header for column in table.columns]
    assert list(table.columns[3].cells) == ["12"]


def test_a_single_gold_class_is_a_caveat() -> None:
    task = SimpleNamespace(behaviour=SimpleNamespace(target_kind=LABEL))
    [line] = single_class_caveat(task, ["yes"] * 5, 5)
    assert "all 5 test samples (--limit 5) have gold 'yes'" in line and "f1_macro" in line
    assert single_class_caveat(task, ["yes", "no"], 5) == []
    numbers = SimpleNamespace(behaviour=SimpleNamespace(target_kind=NUMBER))
    assert single_class_caveat(numbers, [1.0, 1.0], None) == []
