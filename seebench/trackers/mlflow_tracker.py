"""The ``mlflow`` tracker plugin: a run's results in MLflow.

One MLflow run per ``seebench eval``: the run's resolved configuration becomes its params
(flattened to ``key.sub`` names; where each value came from is left out) and, at the end, the
leaderboard CSV its artifact. Each model and method of the run (a sweep has several) gets a
nested child run named ``MODEL/METHOD`` with the params ``model`` and ``method``, its units'
metrics (``TASK.METRIC``), a ``TASK.status`` tag and each unit's result and samples files as
artifacts under ``units/MODEL/METHOD/``: two models' values of one task never collide, and
MLflow's run comparison lines the models up.

MLflow's own environment variables apply: ``MLFLOW_TRACKING_URI`` (a server, or
``file:///path`` for a local store; default: MLflow's own default), ``MLFLOW_EXPERIMENT_NAME``
(default ``seebench``), ``MLFLOW_RUN_NAME``. Tokens and passwords are read by MLflow itself and
never passed on or written by seebench.
"""

from __future__ import annotations

import os
import re
import time
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
        self._children: dict[tuple[str, str], str] = {}
        params = flatten({k: v for k, v in self.config.items() if k != "sources"})
        items = sorted(params.items())
        for start in range(0, len(items), 100):  # MLflow takes at most 100 params per batch
            mlflow.log_params(dict(items[start : start + 100]))

    def _child(self, model: str, method: str) -> str:
        """The id of the nested run of ``model`` and ``method`` (created on first use)."""
        key = (model, method)
        if key not in self._children:
            from mlflow.tracking import MlflowClient

            self._client = getattr(self, "_client", None) or MlflowClient()
            parent = self.run.info
            child = self._client.create_run(
                parent.experiment_id,
                run_name=f"{model}/{method}",
                tags={"mlflow.parentRunId": parent.run_id},
            )
            self._client.log_param(child.info.run_id, "model", model)
            self._client.log_param(child.info.run_id, "method", method)
            self._children[key] = child.info.run_id
        return self._children[key]

    def log_unit(self, unit: UnitRecord) -> None:
        from mlflow.entities import Metric, RunTag

        event = unit.event
        run_id = self._child(event.model_id, event.method)
        values = {metric_name(event.task, k): float(v) for k, v in event.metrics.items()}
        values[metric_name(event.task, "seconds")] = float(event.seconds)
        now = int(time.time() * 1000)
        self._client.log_batch(
            run_id,
            metrics=[Metric(key, value, now, 0) for key, value in values.items()],
            tags=[RunTag(metric_name(event.task, "status"), event.status)],
        )
        where = f"units/{event.model_id}/{event.method}"
        for path in (event.result_path, unit.samples_path):
            if path is not None and path.is_file():
                self._client.log_artifact(run_id, str(path), artifact_path=where)

    def finish(self, leaderboard: Path) -> None:
        for run_id in self._children.values():
            self._client.set_terminated(run_id)
        self._mlflow.log_artifact(str(leaderboard))
        self._mlflow.end_run()


TRACKER = MlflowTracker


@hookimpl
def on_unit_finished(event: UnitFinished) -> None:
    tracker = active_tracker(MlflowTracker.name)
    if tracker is not None:
        tracker.handle(event)
