"""The run display stays readable when standard error is a file (CI logs, `2> log`)."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from seebench.executors.progress import SweepProgress
from seebench.runner.progress import summary_table

REASON = (
    "task 'bug_issue': data file bug_issue.parquet is not available here and its checksum "
    "is not pinned yet; obtain it from https://example.org/datasets/bug_issue/bug_issue.parquet"
)


def _console(buffer: io.StringIO) -> Console:
    return Console(file=buffer, width=80, force_terminal=False)


def test_a_logged_message_stays_on_one_line():
    buffer = io.StringIO()
    progress = SweepProgress({"majority": 1}, enabled=False, console=_console(buffer))
    progress.log(f"bug_issue: skipped: {REASON}")
    assert buffer.getvalue() == f"bug_issue: skipped: {REASON}\n"


def test_long_reasons_stay_out_of_the_table_rows():
    outcome = SimpleNamespace(
        model_id="majority",
        method="baseline",
        task="bug_issue",
        primary_metric="f1_macro",
        metrics={},
        n=None,
        seconds=0.0,
        status="skipped",
        reason=REASON,
        note=None,
    )
    buffer = io.StringIO()
    _console(buffer).print(summary_table([outcome]))
    rows = [line for line in buffer.getvalue().splitlines() if "bug_issue" in line]
    assert len(rows) == 1 and "skipped" in rows[0] and "checksum" not in rows[0]


def test_with_a_note_the_columns_stay_readable():
    row = {
        "model_id": "tfidf-xgboost",
        "method": "baseline",
        "primary_metric": "f1_macro",
        "n": 191,
        "seconds": 5.8,
        "metrics": {"f1_macro": 0.72},
    }
    outcomes = [
        SimpleNamespace(
            **row,
            task="functional_requirement",
            status="ok",
            reason=None,
            note="selected max_depth=6 min_child_weight=1 (validation f1_macro 0.8780)",
        ),
        SimpleNamespace(
            **{**row, "metrics": {}}, task="bug_issue", status="skipped", reason=REASON, note=None
        ),
    ]
    for width in (80, 120):
        buffer = io.StringIO()
        Console(file=buffer, width=width, force_terminal=False).print(summary_table(outcomes))
        text = buffer.getvalue()
        assert (
            "functional_requirement" in text
            and "tfidf-xgboost / baseline" in text
            and "0.7200" in text
        )
    assert "selected max_depth=6 min_child_weight=1" in text  # at 120 columns the note fits


def test_a_note_column_appears_only_when_a_method_summarised_a_unit():
    row = {
        "model_id": "m",
        "method": "baseline",
        "task": "t",
        "primary_metric": "f1_macro",
        "metrics": {"f1_macro": 0.5},
        "n": 10,
        "seconds": 1.0,
        "status": "ok",
        "reason": None,
    }
    plain = [column.header for column in summary_table([SimpleNamespace(**row, note=None)]).columns]
    noted = summary_table([SimpleNamespace(**row, note="selected lr=0.1 epoch=20")])
    assert "note" not in plain and noted.columns[-1].header == "note"
    assert list(noted.columns[-1].cells) == ["selected lr=0.1 epoch=20"]


def test_the_table_console_is_wide_when_writing_to_a_file():
    from seebench.runner.progress import table_console

    assert table_console(file=io.StringIO()).width >= 160


def test_the_table_shows_how_many_answers_were_invalid_when_some_were():
    row = {
        "model_id": "m",
        "method": "zero-shot",
        "primary_metric": "pass_rate",
        "metrics": {"pass_rate": 0.2},
        "n": 5,
        "seconds": 1.0,
        "status": "ok",
        "reason": None,
        "note": None,
    }
    clean = summary_table([SimpleNamespace(**row, task="a", invalid=0)])
    assert "invalid" not in [column.header for column in clean.columns]
    table = summary_table(
        [
            SimpleNamespace(**row, task="a", invalid=1),
            SimpleNamespace(**row, task="b", invalid=None),
        ]
    )
    [column] = [c for c in table.columns if c.header == "invalid"]
    assert list(column.cells) == ["1", "-"]
