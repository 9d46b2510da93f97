"""The end-of-run table (the progress display of a run is the driver's:
:class:`seebench.executors.progress.SweepProgress`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from seebench.secrets import scrub


def table_console(**kwargs: Any) -> Console:
    """A console for the end-of-run table: at least 160 columns wide when it is not a terminal
    (a log file has no width to respect; 80 columns would squeeze the note column away)."""
    console = Console(**kwargs)
    if not console.is_terminal and console.width < 160:
        console = Console(**kwargs, width=160)
    return console


def summary_table(outcomes: Sequence[Any]) -> Table:
    """The end-of-run table: task, metric, value, n (the scored samples x repeats the value rests
    on; the test items when unknown), excl. (samples left unscored: an environment not ready,
    an excluded case; shown when some unit has any), invalid (answers that could not be read,
    scored as wrong; shown when some unit has any), seconds, status (model and
    method too when the run mixed several), and a note column when a method summarised a unit (e.g. the
    selected hyper-parameters).

    Reasons for skipped or failed units are not repeated here: the runner logs each on one line
    above the table. Only the note wraps, so rows stay one line wherever it fits.
    """
    notes = any(outcome.note for outcome in outcomes)
    # one model and method per run (the usual case): say them in the title, not on every row
    runs = {(outcome.model_id, outcome.method) for outcome in outcomes}
    shared = len(runs) == 1
    title = "seebench results" + (": {} / {}".format(*next(iter(runs))) if shared else "")
    table = Table(title=title, show_lines=False)
    excluded = any(getattr(outcome, "excluded", None) for outcome in outcomes)
    invalid = any(getattr(outcome, "invalid", None) for outcome in outcomes)
    columns = (
        "task",
        "metric",
        "value",
        "n",
        *(("excl.",) if excluded else ()),
        *(("invalid",) if invalid else ()),
        "seconds",
        "status",
    )
    if not shared:
        columns = ("model", "method", *columns)
    for column in columns:
        table.add_column(
            column,
            justify="right" if column in ("value", "n", "excl.", "invalid", "seconds") else "left",
            no_wrap=True,
        )
    if notes:
        table.add_column("note")
    for outcome in outcomes:
        value = outcome.metrics.get(outcome.primary_metric) if outcome.primary_metric else None
        table.add_row(
            *(() if shared else (outcome.model_id, outcome.method)),
            outcome.task,
            outcome.primary_metric or "-",
            _format_value(value),
            *_counts(outcome)[: 2 if excluded else 1],
            *((_invalid(outcome),) if invalid else ()),
            f"{outcome.seconds:.1f}",
            outcome.status,
            *((scrub(outcome.note or ""),) if notes else ()),
        )
    return table


def _counts(outcome: Any) -> tuple[str, str]:
    """The scored and excluded counts behind the value: samples x repeats the metrics used and
    those left unscored (an environment not ready, an excluded case); ``-`` when unknown."""
    excluded = getattr(outcome, "excluded", None)
    if outcome.n is None:
        return "-", "-"
    if excluded is None or not outcome.metrics:
        return str(outcome.n), "-"
    repeats = max(1, getattr(outcome, "repeats", 1) or 1)
    return str(max(0, outcome.n * repeats - excluded)), str(excluded)


def _invalid(outcome: Any) -> str:
    """Answers the task type could not read (scored as wrong), of all samples x repeats."""
    count = getattr(outcome, "invalid", None)
    return "-" if count is None else str(count)


def _format_value(value: Any) -> str:
    """A metric value for the table; anything that is not a number is shown, never formatted."""
    if value is None:
        return "-"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:.4f}"
    return repr(value)[:20]
