"""The run display stays readable when standard error is a file (CI logs, `2> log`)."""

from __future__ import annotations

import io
from types import SimpleNamespace

from rich.console import Console

from seebench.runner.progress import RunProgress, summary_table

REASON = ("task 'bug_issue': data file bug_issue.parquet is not available here and its checksum "
          "is not pinned yet; obtain it from https://example.org/datasets/bug_issue/bug_issue.parquet")


def _console(buffer: io.StringIO) -> Console:
    return Console(file=buffer, width=80, force_terminal=False)


def test_a_logged_message_stays_on_one_line():
    buffer = io.StringIO()
    progress = RunProgress(1, console=_console(buffer), enabled=False)
    progress.log(f"bug_issue: skipped: {REASON}")
    assert buffer.getvalue() == f"bug_issue: skipped: {REASON}\n"


def test_long_reasons_do_not_stretch_the_table_rows():
    outcome = SimpleNamespace(model_id="majority", method="baseline", task="bug_issue", primary_metric="f1_macro",
                              metrics={}, n=None, seconds=0.0, status="skipped", reason=REASON)
    buffer = io.StringIO()
    _console(buffer).print(summary_table([outcome]))
    rows = [line for line in buffer.getvalue().splitlines() if "bug_issue" in line]
    assert len(rows) == 1 and "skipped" in rows[0] and "…" in rows[0]


def test_a_note_column_appears_only_when_a_method_summarised_a_unit():
    row = {"model_id": "m", "method": "baseline", "task": "t", "primary_metric": "f1_macro", "metrics": {"f1_macro": 0.5},
           "n": 10, "seconds": 1.0, "status": "ok", "reason": None}
    plain = [column.header for column in summary_table([SimpleNamespace(**row, note=None)]).columns]
    noted = summary_table([SimpleNamespace(**row, note="selected lr=0.1 epoch=20")])
    assert "note" not in plain and noted.columns[-1].header == "note"
    assert list(noted.columns[-1].cells) == ["selected lr=0.1 epoch=20"]
