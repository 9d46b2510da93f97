"""Executors: where the units of a sweep run (``seebench eval --executor local|ray``).

:mod:`~seebench.executors.plan` turns models x tasks into units with the resources each needs,
:mod:`~seebench.executors.driver` runs them on an :class:`Executor` with checks, retries and an
event log; executors are plugins (``register_executors``).
"""

from seebench.executors.base import Executor, ExecutorOptions
from seebench.executors.driver import SweepInterrupted, SweepResult, run_sweep
from seebench.executors.plan import Resources, Unit, parse_models, plan_sweep
from seebench.executors.retry import TransientError, is_transient
from seebench.executors.worker import UnitReport

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
    "run_sweep",
]
