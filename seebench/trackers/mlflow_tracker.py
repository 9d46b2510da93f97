"""The ``mlflow`` tracker plugin: a run's results in MLflow.

The run's resolved configuration becomes the MLflow run's params (flattened to
``key.sub`` names; where each value came from is left out); per unit, its metrics (``TASK.METRIC``) and its result and samples files
as artifacts under ``units/MODEL/METHOD/``; at the end the leaderboard CSV as an artifact.

MLflow's own environment variables apply: ``MLFLOW_TRACKING_URI`` (a server, or
``file:///path`` for a local store; default: MLflow's own default), ``MLFLOW_EXPERIMENT_NAME``
(default ``seebench``), ``MLFLOW_RUN_NAME``. Tokens and passwords are read by MLflow itself and
never passed on or written by seebench.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from seebench.events import UnitFinished
from seebench.hookspecs import hookimpl
from seebench.trackers import Tracker, UnitRecord, active_tracker, import_tracker_library

#: MLflow's limit on the length of a param value.
MAX_PARAM_LENGTH = 6000
_UNSAFE = re.compile(r"[^A-Za-z0-9_\-. /]")


def flatten(value: Any, prefix: str = "") -> dict[str, str]:
    """``{"a": {"b": 1}}`` -> ``{"a.b": "1"}`` (lists and scalars become text)."""
    if isinstance(value, dict) and value:
        flat: dict[str, str] = {}
        for key, item in value.items():
            flat.update(flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    return {prefix: str(value)[:MAX_PARAM_LENGTH]} if prefix else {}


def metric_name(*parts: str) -> str:
    """A name MLflow accepts (letters, digits, ``_-. /``)."""
    return _UNSAFE.sub("_", ".".join(parts))


class MlflowTracker(Tracker):
    """Logs to one MLflow run per ``seebench eval``."""

    name = "mlflow"

    def start(self) -> None:
        mlflow = import_tracker_library("mlflow", self.name)
        self._mlflow = mlflow
        mlflow.set_experiment(os.environ.get("MLFLOW_EXPERIMENT_NAME") or "seebench")
        self.run = mlflow.start_run(run_name=os.environ.get("MLFLOW_RUN_NAME") or None)
        params = flatten({k: v for k, v in self.config.items() if k != "sources"})
        items = sorted(params.items())
        for start in range(0, len(items), 100):  # MLflow takes at most 100 params per batch
            mlflow.log_params(dict(items[start : start + 100]))

    def log_unit(self, unit: UnitRecord) -> None:
        event = unit.event
        metrics = {metric_name(event.task, k): float(v) for k, v in event.metrics.items()}
        metrics[metric_name(event.task, "seconds")] = float(event.seconds)
        self._mlflow.log_metrics(metrics)
        self._mlflow.set_tag(metric_name(event.task, "status"), event.status)
        where = f"units/{event.model_id}/{event.method}"
        if event.result_path is not None and event.result_path.is_file():
            self._mlflow.log_artifact(str(event.result_path), artifact_path=where)
        if unit.samples_path is not None and unit.samples_path.is_file():
            self._mlflow.log_artifact(str(unit.samples_path), artifact_path=where)

    def finish(self, leaderboard: Path) -> None:
        self._mlflow.log_artifact(str(leaderboard))
        self._mlflow.end_run()


TRACKER = MlflowTracker


@hookimpl
def on_unit_finished(event: UnitFinished) -> None:
    tracker = active_tracker(MlflowTracker.name)
    if tracker is not None:
        tracker.handle(event)
