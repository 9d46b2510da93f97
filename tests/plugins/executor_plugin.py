"""Test models and a method for executor tests: ``xecho:KIND-N`` echoes the gold labels after
sleeping ``$SEEBENCH_TEST_SLEEP`` seconds per unit, and by KIND asks for resources or fails.

KIND: ``plain``, ``sandbox`` (asks for the sandbox), ``gpu`` (asks for a GPU), ``twogpu``
(two GPUs), ``flaky``
(its first attempt of each unit fails with a ConnectionError; marker files in
``$SEEBENCH_TEST_FLAKY_DIR``), ``crash`` (its worker process exits in the first attempt;
only for executors with worker processes), ``broken`` (always fails with a ValueError: deterministic).

Loaded with SEEBENCH_PLUGINS=tests.plugins.executor_plugin (workers load it the same way).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from seebench import hookimpl


def resolve_xecho(spec: str):
    from seebench.models import ModelRef, safe_id

    return ModelRef(spec=spec, id=safe_id(spec), kind="test", identity={"echo": spec})


def _kind(model) -> str:
    return model.spec.split(":", 1)[1].split("-", 1)[0]


class ResourceEchoMethod:
    """Echoes the gold label; its resources and failures follow the model's KIND."""

    name = "resource-echo"

    def not_applicable(self, task, model):
        return None

    def resources(self, task, model, options):
        kind = _kind(model)
        asked = {"sandbox": {"sandbox": 1}, "gpu": {"gpu": 1}, "twogpu": {"gpu": 2}}
        return asked.get(kind, {"cpu": 1})

    def run(self, context):
        from seebench.methods import MethodOutput, Prediction

        time.sleep(float(os.environ.get("SEEBENCH_TEST_SLEEP", "0")))
        kind = _kind(context.model)
        if kind == "broken":
            raise ValueError("bad data in the test set")
        if kind == "crash":  # the worker process dies in its first attempt of each unit
            marker = Path(os.environ["SEEBENCH_TEST_FLAKY_DIR"]) / (
                f"{context.model.id}-{context.task.name}"
            )
            if not marker.exists():
                marker.write_text("crashed once")
                os._exit(3)
        if kind == "flaky":
            marker = Path(os.environ["SEEBENCH_TEST_FLAKY_DIR"]) / (
                f"{context.model.id}-{context.task.name}"
            )
            if not marker.exists():
                marker.write_text("failed once")
                raise ConnectionError("model server down")
        return MethodOutput([Prediction(s.id, s.target) for s in context.data.test])


@hookimpl
def register_methods(register):
    register("resource-echo", ResourceEchoMethod, description="Echo with declared resources.")


@hookimpl
def register_models(register):
    register(
        "xecho:",
        resolve_xecho,
        description="Echo models for executor tests.",
        default_method="resource-echo",
        prefix=True,
    )
