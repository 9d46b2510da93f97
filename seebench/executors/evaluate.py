"""``run_eval``: one model's evaluation as a library call, a one-model plan run by the sweep
driver on the serial local executor (the same loop as every ``seebench eval``)."""

from __future__ import annotations

from typing import Any

from seebench.executors.base import ExecutorOptions
from seebench.executors.driver import run_sweep
from seebench.executors.local import LocalExecutor
from seebench.executors.plan import plan_sweep
from seebench.runner.budget import BudgetExhausted
from seebench.runner.config import EvalConfig
from seebench.runner.runner import UnitOutcome


def run_eval(
    config: EvalConfig, registry: Any, index: Any, *, retries: int = 0
) -> list[UnitOutcome]:
    """Evaluate ``config.model`` on the selected tasks of ``index``; returns one outcome per
    unit in task order (the command line hands in the process-wide registry and task index).

    Units run one after another in this process; ``retries`` is how many more attempts a unit
    that failed with a transient error gets. Raises
    :class:`~seebench.runner.budget.BudgetExhausted` when ``config.budget`` stopped the run
    (its ``outcomes`` are the finished units, ``remaining`` the keys of the others) and
    :class:`~seebench.executors.driver.SweepInterrupted` on Ctrl-C.
    """
    runners: dict[str, Any] = {}
    units = plan_sweep(config, [config.model], registry, index, runners)
    executor = LocalExecutor(ExecutorOptions(registry=registry, index=index))
    result = run_sweep(
        units,
        executor,
        runners=runners,
        retries=retries,
        progress=config.progress,
        registry=registry,
        index=index,
        budget=config.budget,
    )
    if result.stopped is not None:
        raise BudgetExhausted(result.stopped, result.finished, result.not_run)
    return result.outcomes
