"""The sweep driver: skips finished units, hands the rest to an executor, checks every result
a unit reports as soon as it returns, retries transient failures with backoff, and records
everything in the event log and the progress display.

The driver is the only place that decides: executors start units and report. So resume,
retries and checks behave the same on one process, a pool of processes or a Ray cluster.
"""

from __future__ import annotations

import shlex
import time
from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.executors.base import Executor
from seebench.executors.events import EventLog
from seebench.executors.plan import Unit
from seebench.executors.progress import SweepProgress
from seebench.executors.retry import backoff_seconds
from seebench.executors.worker import UnitReport, completed_outcome, runner_for
from seebench.runner.runner import UnitOutcome


@dataclass
class SweepResult:
    """The outcome of every unit of the plan (in plan order), the earlier failed attempts of
    each unit, and how many attempts the executor ran."""

    units: list[Unit]
    outcomes: list[UnitOutcome]
    attempts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    executed: int = 0

    @property
    def failed(self) -> list[UnitOutcome]:
        return [o for o in self.outcomes if o.status == "failed"]


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C during a sweep: ``outcomes`` of the finished units (kept on disk), ``running``
    the keys of the units that were stopped (nothing of them was kept)."""

    def __init__(self, outcomes: list[UnitOutcome], running: list[str]):
        super().__init__(", ".join(running))
        self.outcomes = outcomes
        self.running = running


def verify_report(unit: Unit, report: UnitReport) -> UnitReport:
    """Check the result file of a unit that reports success, from the driver's side: a worker
    that wrote where the driver cannot see (no shared file system) is a failure now."""
    from seebench.results.verify import verify_result

    if report.status not in ("ok", "not_applicable"):
        return report
    path = Path(report.result_path) if report.result_path else unit.result_path()
    check = verify_result(path)
    problem = None
    if check.absent:
        problem = (
            f"the worker on {report.node or '?'} finished, but its result {path} is not visible "
            "to the driver: --output must be on a file system shared by the driver and every "
            "worker"
        )
    elif check.problem:
        problem = f"the result written on {report.node or '?'} does not verify: {check.problem}"
    elif (check.result or {}).get("status") != report.status:
        problem = (
            f"the worker on {report.node or '?'} reported {report.status!r}, its result "
            f"{path} says {(check.result or {}).get('status')!r}"
        )
    if problem:
        report.status, report.reason, report.transient = "failed", problem, False
    return report


def _outcome(unit: Unit, report: UnitReport) -> UnitOutcome:
    return UnitOutcome(
        unit.model_id,
        unit.method,
        unit.task,
        report.status,
        reason=report.reason,
        metrics=dict(report.metrics),
        primary_metric=report.primary_metric,
        n=report.n,
        seconds=report.seconds,
        result_path=Path(report.result_path) if report.result_path else unit.result_path(),
        note=report.note,
    )


def _notify(outcome: UnitOutcome, attempts: int, registry: Any) -> None:
    """Tell the registry's ``on_unit_finished`` observers (none without a registry)."""
    if registry is None:
        return
    from seebench.events import UnitFinished

    registry.notify_unit_finished(
        UnitFinished(
            model_id=outcome.model_id,
            method=outcome.method,
            task=outcome.task,
            status=outcome.status,
            reason=outcome.reason,
            metrics=dict(outcome.metrics),
            result_path=outcome.result_path,
            seconds=outcome.seconds,
            extra={"attempts": attempts},
        )
    )


def run_sweep(
    units: Sequence[Unit],
    executor: Executor,
    *,
    runners: dict[str, Any] | None = None,
    retries: int = 2,
    backoff: float = 2.0,
    events: EventLog | None = None,
    progress: bool = True,
    registry: Any = None,
    index: Any = None,
) -> SweepResult:
    """Run ``units`` on ``executor``; see the module docstring.

    ``runners`` (model spec -> runner, from :func:`~seebench.executors.plan.plan_sweep`) tell
    which units are finished already; ``retries`` is how many more attempts a transient
    failure gets, ``backoff`` the first wait in seconds (doubled for each further attempt).
    Raises :class:`SweepInterrupted` on Ctrl-C after stopping the executor.
    """
    events = events or EventLog(None)
    units = list(units)
    per_model: dict[str, int] = defaultdict(int)
    for unit in units:
        per_model[unit.model_id] += 1
    outcomes: dict[str, UnitOutcome] = {}
    attempts: dict[str, list[dict[str, Any]]] = defaultdict(list)
    executed = 0
    display = SweepProgress(dict(per_model), enabled=progress)

    with display:
        todo: deque[Unit] = deque()
        for unit in units:
            runner = (runners or {}).get(unit.model_spec) or runner_for(unit, registry, index)
            cached = completed_outcome(unit, runner)
            if cached is None:
                todo.append(unit)
                continue
            outcomes[unit.key] = cached
            events.write("unit_end", unit=unit.key, status="cached", attempt=0)
            display.ended(unit.model_id, "cached", was_running=False)
        events.write(
            "sweep_start",
            units=len(units),
            to_run=len(todo),
            done_before=len(units) - len(todo),
            executor=executor.describe() if todo else None,
        )
        if todo:
            display.log(
                f"{len(todo)} of {len(units)} unit(s) to run on {executor.describe()}"
                + (f"; {len(units) - len(todo)} already done" if len(todo) < len(units) else "")
            )
        in_flight: dict[Any, Unit] = {}
        delayed: list[tuple[float, Unit]] = []
        try:
            if todo:
                executor.start(list(todo))
            while todo or delayed or in_flight:
                now = time.monotonic()
                for item in [d for d in delayed if d[0] <= now]:
                    delayed.remove(item)
                    todo.appendleft(item[1])
                while (position := _first_fitting(todo, executor, in_flight)) is not None:
                    unit = todo[position]
                    del todo[position]
                    handle = executor.submit(unit, list(attempts[unit.key]))
                    in_flight[handle] = unit
                    executed += 1
                    events.write("unit_submit", unit=unit.key, attempt=len(attempts[unit.key]) + 1)
                    display.started(unit.model_id)
                if not in_flight:
                    if delayed:
                        time.sleep(max(0.0, min(d[0] for d in delayed) - time.monotonic()))
                    continue
                timeout = 0.5
                if delayed:
                    timeout = max(0.05, min(timeout, min(d[0] for d in delayed) - now))
                for handle, report in executor.wait(timeout):
                    unit = in_flight.pop(handle)
                    _finish_attempt(
                        unit,
                        verify_report(unit, report),
                        attempts,
                        retries,
                        backoff,
                        outcomes,
                        delayed,
                        events,
                        display,
                        registry,
                    )
        except KeyboardInterrupt:
            executor.cancel()
            running = [u.key for u in in_flight.values()]
            events.write("sweep_interrupted", running=running, finished=len(outcomes))
            events.close()
            raise SweepInterrupted(
                [outcomes[u.key] for u in units if u.key in outcomes], running
            ) from None
        finally:
            executor.close()
    result = SweepResult(
        units, [outcomes[u.key] for u in units], {k: v for k, v in attempts.items() if v}, executed
    )
    counts: dict[str, int] = defaultdict(int)
    for outcome in result.outcomes:
        counts[outcome.status] += 1
    events.write("sweep_end", counts=dict(counts), executed=executed)
    events.close()
    return result


def _first_fitting(todo: deque[Unit], executor: Executor, in_flight: dict[Any, Unit]) -> int | None:
    """The position of the first waiting unit that fits beside the running ones, or None.

    Units start in sweep order, but one that does not fit now (the sandbox or the GPU is
    taken) does not hold back those behind it that do: a sweep of sandboxed units and
    in-process ones keeps every worker busy.
    """
    busy = [u.resources for u in in_flight.values()]
    for position, unit in enumerate(todo):
        if executor.fits(unit, busy):
            return position
    return None


def _finish_attempt(
    unit: Unit,
    report: UnitReport,
    attempts: dict[str, list[dict[str, Any]]],
    retries: int,
    backoff: float,
    outcomes: dict[str, UnitOutcome],
    delayed: list[tuple[float, Unit]],
    events: EventLog,
    display: SweepProgress,
    registry: Any = None,
) -> None:
    """Record one ended attempt: schedule a retry for a transient failure, else the outcome."""
    number = len(attempts[unit.key]) + 1
    events.write(
        "unit_start", at=report.started_at, unit=unit.key, attempt=number, node=report.node
    )
    for line in report.log:
        display.log(f"{unit.key}: {line}")
    if report.status == "failed" and report.transient and number <= retries:
        attempts[unit.key].append(
            {
                "attempt": number,
                "reason": report.reason or "?",
                "node": report.node,
                "seconds": round(report.ended_at - report.started_at, 3),
            }
        )
        delay = backoff_seconds(number, backoff)
        events.write(
            "unit_retry",
            unit=unit.key,
            attempt=number,
            reason=report.reason,
            delay_s=round(delay, 3),
        )
        display.log(
            f"{unit.key}: attempt {number} failed ({report.reason}); retrying in {delay:.1f}s"
        )
        display.retrying(unit.model_id)
        delayed.append((time.monotonic() + delay, unit))
        return
    outcome = _outcome(unit, report)
    outcomes[unit.key] = outcome
    events.write(
        "unit_end",
        at=report.ended_at,
        unit=unit.key,
        status=report.status,
        reason=report.reason,
        attempt=number,
        node=report.node,
        seconds=round(report.seconds, 3),
    )
    if report.status in ("failed", "skipped"):
        display.log(f"{unit.key}: {report.status}: {report.reason}")
    display.ended(unit.model_id, report.status)
    _notify(outcome, number, registry)


def rerun_commands(result: SweepResult, base_args: Sequence[str]) -> list[str]:
    """One ``seebench eval`` command per model that reruns only its failed units:
    ``--model``, ``--method`` and ``--tasks`` plus ``base_args`` (the sweep's other options)."""
    failed = {o.model_id + "/" + o.method + "/" + o.task for o in result.failed}
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for unit in result.units:
        if unit.key in failed:
            groups[(unit.model_spec, unit.method)].append(unit.task)
    return [
        shlex.join(
            ["seebench", "eval", "--model", spec, "--method", method, "--tasks", ",".join(tasks)]
            + list(base_args)
        )
        for (spec, method), tasks in groups.items()
    ]


def failure_summary(result: SweepResult, base_args: Sequence[str]) -> list[str]:
    """The lines printed after a sweep with failed units: each with its one-line reason and
    attempts, then the commands that rerun only them."""
    if not result.failed:
        return []
    lines = [f"{len(result.failed)} unit(s) failed:"]
    for outcome in result.failed:
        key = f"{outcome.model_id}/{outcome.method}/{outcome.task}"
        tries = len(result.attempts.get(key, [])) + 1
        after = f" (after {tries} attempts)" if tries > 1 else ""
        lines.append(f"  {key}: {outcome.reason}{after}")
    lines.append("rerun only the failed units with:")
    lines.extend(f"  {command}" for command in rerun_commands(result, base_args))
    return lines
