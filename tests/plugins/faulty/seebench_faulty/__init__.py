"""A deliberately faulty plugin (see ``pyproject.toml``): every registration below hides a
mistake that ``seebench plugins check`` reports."""

from __future__ import annotations

from pathlib import Path

from seebench.api import RegisterMethod, RegisterMetric, RegisterTaskDir, hookimpl


@hookimpl
def register_task_dirs(register: RegisterTaskDir) -> None:
    register(Path(__file__).parent / "tasks", suite="faulty")


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    # lower is better, but registered the other way round
    register("faulty_error_rate", "seebench_faulty.metrics:error_rate")
    # an import path to nothing
    register("faulty_recall", "seebench_faulty.metrics:no_such_function", description="Recall.")


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    # "integr" is not a JSON Schema type
    register("faulty-method", "seebench_faulty.method:Method", options={"k": {"type": "integr"}})
