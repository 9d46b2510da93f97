"""One progress display for a whole sweep: a bar per model with its units done, running and
failed, and log lines above it."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from seebench.secrets import scrub


class SweepProgress:
    """Per-model counters of a sweep, drawn with rich (or not at all when disabled)."""

    def __init__(
        self, units_per_model: dict[str, int], enabled: bool = True, console: Console | None = None
    ):
        self.counts = {
            m: {"done": 0, "running": 0, "failed": 0, "total": n}
            for m, n in units_per_model.items()
        }
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[state]}"),
            TimeElapsedColumn(),
            console=console or Console(stderr=True),
            disable=not enabled,
        )
        self.bars = {
            model: self.progress.add_task(model, total=n, state=self._state(model))
            for model, n in units_per_model.items()
        }

    def __enter__(self) -> SweepProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.__exit__(*exc)

    def _state(self, model: str) -> str:
        c = self.counts[model]
        return f"running {c['running']} · failed {c['failed']}"

    def _update(self, model: str) -> None:
        c = self.counts[model]
        self.progress.update(self.bars[model], completed=c["done"], state=self._state(model))

    def started(self, model: str) -> None:
        self.counts[model]["running"] += 1
        self._update(model)

    def ended(self, model: str, status: str, was_running: bool = True) -> None:
        c = self.counts[model]
        if was_running:
            c["running"] = max(0, c["running"] - 1)
        c["done"] += 1
        if status == "failed":
            c["failed"] += 1
        self._update(model)

    def retrying(self, model: str) -> None:
        c = self.counts[model]
        c["running"] = max(0, c["running"] - 1)
        self._update(model)

    def log(self, message: str) -> None:
        self.progress.console.print(scrub(message), markup=False, highlight=False, soft_wrap=True)
