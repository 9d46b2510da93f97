"""Executors: where the units of a sweep run (``seebench eval --executor local|ray``).

:mod:`~seebench.executors.plan` turns models x tasks into units with the resources each needs,
:mod:`~seebench.executors.driver` runs them on an :class:`Executor` with checks, retries and an
event log; executors are plugins (``register_executors``).
"""

import importlib
from typing import Any

#: the public names and the module each lives in (imported on first use, so that loading the
#: executors' plugin at start-up costs nothing)
_EXPORTS = {
    "Executor": "base",
    "ExecutorOptions": "base",
    "SweepInterrupted": "driver",
    "SweepResult": "driver",
    "run_sweep": "driver",
    "run_eval": "evaluate",
    "Resources": "plan",
    "Unit": "plan",
    "parse_models": "plan",
    "plan_sweep": "plan",
    "TransientError": "retry",
    "is_transient": "retry",
    "UnitReport": "worker",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'seebench.executors' has no attribute {name!r}")
    return getattr(importlib.import_module(f"seebench.executors.{module}"), name)


__all__ = [
    "Executor",
    "ExecutorOptions",
    "Resources",
    "SweepInterrupted",
    "SweepResult",
    "TransientError",
    "Unit",
    "UnitReport",
    "is_transient",
    "parse_models",
    "plan_sweep",
    "run_eval",
    "run_sweep",
]
