"""The ``wandb`` tracker plugin: a run's results in Weights & Biases.

Per unit: its metrics (``TASK/METRIC``, also in the run summary) and a table of its samples
(``samples/TASK``: id, prediction, gold, score, error). At the end: the leaderboard as a
``leaderboard`` artifact and as a table. The run's resolved configuration is the W&B config.

W&B's own environment variables apply: ``WANDB_MODE=offline`` writes everything under
``WANDB_DIR`` (W&B's default: ``./wandb``; never the results directory, whose JSON files
are results) and sends nothing (``wandb sync`` uploads it
later); ``WANDB_PROJECT`` (default ``seebench``), ``WANDB_ENTITY``, ``WANDB_NAME``.
``WANDB_API_KEY`` is read by wandb itself and never passed on or written by seebench.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from seebench.events import UnitFinished
from seebench.hookspecs import hookimpl
from seebench.trackers import Tracker, UnitRecord, active_tracker, import_tracker_library

#: Sample fields shown in the per-unit table (values that are not text become JSON).
SAMPLE_COLUMNS = ("id", "prediction", "gold", "score", "error")


def _cell(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return json.dumps(value, sort_keys=True, default=str)


class WandbTracker(Tracker):
    """Logs to one W&B run per ``seebench eval``."""

    name = "wandb"

    def start(self) -> None:
        wandb = import_tracker_library("wandb", self.name)
        self._wandb = wandb
        self.run = wandb.init(
            project=os.environ.get("WANDB_PROJECT") or "seebench",
            name=os.environ.get("WANDB_NAME") or None,
            job_type="eval",
            config=self.config,
        )

    def log_unit(self, unit: UnitRecord) -> None:
        event = unit.event
        metrics = {f"{event.task}/{name}": value for name, value in event.metrics.items()}
        metrics[f"{event.task}/seconds"] = event.seconds
        self.run.log(metrics)
        self.run.summary[f"{event.task}/status"] = event.status
        if unit.samples:
            rows = [[_cell(record.get(c)) for c in SAMPLE_COLUMNS] for record in unit.samples]
            table = self._wandb.Table(columns=list(SAMPLE_COLUMNS), data=rows)
            self.run.log({f"samples/{event.task}": table})

    def finish(self, leaderboard: Path) -> None:
        artifact = self._wandb.Artifact("leaderboard", type="leaderboard")
        artifact.add_file(str(leaderboard), name="leaderboard.csv")
        self.run.log_artifact(artifact)
        self.run.finish()


TRACKER = WandbTracker


@hookimpl
def on_unit_finished(event: UnitFinished) -> None:
    tracker = active_tracker(WandbTracker.name)
    if tracker is not None:
        tracker.handle(event)
