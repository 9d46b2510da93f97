"""Progress display: one overall bar (units and samples, ETA) and the end-of-run table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table


class RunProgress:
    """Wraps a rich progress bar over units, with a running count of samples."""

    def __init__(self, total_units: int, console: Console | None = None, enabled: bool = True):
        self.console = console or Console(stderr=True)
        self.samples = 0
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("units · {task.fields[samples]} samples"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            console=self.console,
            disable=not enabled,
            transient=False,
        )
        self.bar = self.progress.add_task("eval", total=total_units, samples=0)

    def __enter__(self) -> RunProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.__exit__(*exc)

    def describe(self, text: str) -> None:
        self.progress.update(self.bar, description=text)

    def add_samples(self, n: int) -> None:
        self.samples += n
        self.progress.update(self.bar, samples=self.samples)

    def unit_done(self) -> None:
        self.progress.advance(self.bar)

    def log(self, message: str) -> None:
        # soft_wrap: one message stays one line when standard error is a file or a pipe
        self.progress.console.print(message, markup=False, highlight=False, soft_wrap=True)


def summary_table(outcomes: Sequence[Any]) -> Table:
    """The end-of-run table: task, method, metric, value, n, seconds, status (and a note column
    when a method summarised a unit, e.g. the selected hyper-parameters)."""
    table = Table(title="seebench results", show_lines=False)
    notes = any(getattr(outcome, "note", None) for outcome in outcomes)
    for column in ("model", "method", "task", "metric", "value", "n", "seconds", "status") + (("note",) if notes else ()):
        if column == "status":  # the full reason was logged above the table, one line each
            table.add_column(column, no_wrap=True, overflow="ellipsis", min_width=12)
        else:
            table.add_column(column, justify="right" if column in ("value", "n", "seconds") else "left")
    for outcome in outcomes:
        value = outcome.metrics.get(outcome.primary_metric) if outcome.primary_metric else None
        status = outcome.status if not outcome.reason else f"{outcome.status}: {outcome.reason}"
        table.add_row(
            outcome.model_id,
            outcome.method,
            outcome.task,
            outcome.primary_metric or "-",
            "-" if value is None else f"{value:.4f}",
            "-" if outcome.n is None else str(outcome.n),
            f"{outcome.seconds:.1f}",
            status,
            *((getattr(outcome, "note", None) or "",) if notes else ()),
        )
    return table
