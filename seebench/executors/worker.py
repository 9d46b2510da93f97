"""Running one unit wherever an executor puts it: in the driver, a local process or a Ray
worker. Each process keeps one :class:`~seebench.runner.runner.Runner` per model, so the units
of a model that land in the same process share its method object (and whatever it loaded).

What comes back is a :class:`UnitReport`: plain data that pickles, never the exception itself
(a worker's exception class may not exist in the driver).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import os
import socket
import time
from dataclasses import dataclass, field
from typing import Any

from seebench import turns
from seebench.executors.plan import Unit
from seebench.executors.retry import is_transient

#: Environment variables a worker process copies from the driver before loading plugins.
ENV_PREFIXES = ("SEEBENCH_",)

_RUNNERS: dict[str, Any] = {}
_ENV_SEEN: dict[str, str] | None = None


@dataclass
class UnitReport:
    """What one attempt of one unit did; ``status`` as in :class:`UnitOutcome`, plus
    ``transient`` (a failure worth retrying), where and when it ran, and its log lines."""

    key: str
    status: str
    reason: str | None = None
    metrics: dict[str, Any] = field(default_factory=dict)
    primary_metric: str | None = None
    n: int | None = None
    excluded: int | None = None
    repeats: int = 1
    seconds: float = 0.0
    note: str | None = None
    result_path: str | None = None
    transient: bool = False
    node: str = ""
    started_at: float = 0.0
    ended_at: float = 0.0
    log: list[str] = field(default_factory=list)
    #: a unit of this worker's process is still running past its time limit
    abandoned: bool = False


def driver_env() -> dict[str, str]:
    """The driver's ``SEEBENCH_*`` variables, for workers to load the same plugins and home."""
    return {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIXES)}


def node_name() -> str:
    """``host:pid`` of this process (the Ray node id is added by the Ray executor)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def _use_env(env: dict[str, str] | None, include_paths: tuple[str, ...]) -> None:
    """Adopt the driver's seebench variables; forget cached plugins when they changed."""
    global _ENV_SEEN
    if env is None:
        return
    wanted = (dict(env), include_paths)
    if wanted == _ENV_SEEN:
        return
    for key in [k for k in os.environ if k.startswith(ENV_PREFIXES) and k not in env]:
        del os.environ[key]
    os.environ.update(env)
    from seebench import plugin_manager
    from seebench.tasks import index as task_index

    plugin_manager.reset()
    task_index.set_include_paths(include_paths)
    _RUNNERS.clear()
    _ENV_SEEN = wanted  # type: ignore[assignment]


def runner_for(unit: Unit, registry: Any = None, index: Any = None) -> Any:
    """This process's runner for ``unit``'s model (built once per model and run options)."""
    from seebench.runner.runner import Runner

    key = repr(dataclasses.replace(unit.config, tasks="", shard=None, budget=None))
    runner = _RUNNERS.get(key)
    if runner is None or (registry is not None and runner.registry is not registry):
        if registry is None or index is None:
            from seebench.plugin_manager import get_registry, get_task_index

            registry, index = get_registry(), get_task_index()
        runner = Runner(unit.config, registry, index)
        _RUNNERS[key] = runner
    runner.config = unit.config
    return runner


def kept_turn(unit: Unit) -> contextlib.AbstractContextManager[None]:
    """For a unit whose work is requests to a model server: its turn at preparing data is
    kept until it sends its first requests (:func:`seebench.turns.kept_until_sending`), so
    that the first unit of units side by side sends before the others prepare."""
    if unit.resources.waits_on_server:
        return turns.kept_until_sending()
    return contextlib.nullcontext()


def execute_unit(
    unit: Unit,
    attempts: list[dict[str, Any]] | None = None,
    env: dict[str, str] | None = None,
    include_paths: tuple[str, ...] = (),
    registry: Any = None,
    index: Any = None,
) -> UnitReport:
    """Run ``unit`` (its earlier failed ``attempts`` go into the result) and report.

    ``env`` (the driver's :func:`driver_env`) and ``include_paths`` are applied first in a
    worker process; ``registry`` and ``index`` are used as they are in the driver's process.
    """
    from seebench.runner.runner import QuietProgress

    started = time.time()
    report = UnitReport(key=unit.key, status="failed", node=node_name(), started_at=started)
    progress = QuietProgress()
    budget = unit.config.budget
    try:
        _use_env(env, include_paths)
        # this unit's own copy (model, method and registry shared): units that run side by
        # side in threads of one process each keep their config and earlier attempts
        runner = copy.copy(runner_for(unit, registry, index))
        runner.config, runner.attempts = unit.config, list(attempts or [])
        task = runner.index.get(unit.task)
        limit = budget.unit_time_limit if budget is not None else None
        with kept_turn(unit):
            outcome = runner.run_unit(task, progress, time_limit=limit)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # planning in the worker failed: no result was written
        report.reason = (f"{type(exc).__name__}: {exc}".splitlines() or ["?"])[0]
        report.transient = is_transient(exc)
    else:
        _fill(report, outcome)
    from seebench.runner.budget import abandoned_units

    report.abandoned = abandoned_units() > 0
    report.ended_at = time.time()
    report.log = progress.lines
    if not report.seconds:
        report.seconds = report.ended_at - started
    return report


def _fill(report: UnitReport, outcome: Any) -> None:
    """Copy a runner's :class:`~seebench.runner.runner.UnitOutcome` into ``report``."""
    report.status, report.reason = outcome.status, outcome.reason
    report.metrics, report.primary_metric = dict(outcome.metrics), outcome.primary_metric
    report.n, report.note = outcome.n, outcome.note
    report.excluded, report.repeats = outcome.excluded, outcome.repeats
    report.seconds = outcome.seconds
    report.result_path = str(outcome.result_path) if outcome.result_path else None
    error = getattr(outcome, "exception", None)
    report.transient = outcome.status == "failed" and error is not None and is_transient(error)
