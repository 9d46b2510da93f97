"""The sweep driver: the one evaluation loop. Every ``seebench eval`` and every
:func:`~seebench.executors.evaluate.run_eval` runs here, one model or many, serially or on an
executor's workers.

The driver plans nothing itself (:func:`~seebench.executors.plan.plan_sweep` does) and runs no
unit itself (an executor does, through :func:`~seebench.executors.worker.execute_unit` and the
runner's phases); it decides: it skips finished units, hands the rest to the executor, checks
every result a unit reports as soon as it returns, charges the run's budget as units finish
and stops starting units when it runs out, retries transient failures with backoff, tells the
``on_unit_finished`` observers, and records everything in the event log and the progress
display. So resume, budgets, retries and checks behave the same on one process, a pool of
processes or a Ray cluster.
"""

from __future__ import annotations

import shlex
import time
from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.executors.base import Executor
from seebench.executors.events import EventLog
from seebench.executors.plan import Unit
from seebench.executors.progress import SweepProgress
from seebench.executors.retry import backoff_seconds
from seebench.executors.worker import UnitReport, runner_for
from seebench.runner.budget import Budget
from seebench.runner.runner import UnitOutcome

#: the status of a unit a budget stop left out
NOT_RUN = "not_run"


@dataclass
class SweepResult:
    """The outcome of every unit of the plan (in plan order), the earlier failed attempts of
    each unit, and how many attempts the executor ran. ``stopped`` says why a budget stopped
    the run (``None``: it ran every unit); the units it did not start have status
    ``not_run``."""

    units: list[Unit]
    outcomes: list[UnitOutcome]
    attempts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    executed: int = 0
    stopped: str | None = None

    @property
    def failed(self) -> list[UnitOutcome]:
        """The outcomes of the units that failed."""
        return [o for o in self.outcomes if o.status == "failed"]

    @property
    def finished(self) -> list[UnitOutcome]:
        """The outcomes of every unit that ran or was found done (all but the ``not_run``)."""
        return [o for o in self.outcomes if o.status != NOT_RUN]

    @property
    def not_run(self) -> list[str]:
        """The keys of the units a budget stop left out, in plan order."""
        return [f"{o.model_id}/{o.method}/{o.task}" for o in self.outcomes if o.status == NOT_RUN]


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
        excluded=report.excluded,
        repeats=report.repeats,
        seconds=report.seconds,
        result_path=Path(report.result_path) if report.result_path else unit.result_path(),
        note=report.note,
    )


class _Sweep:
    """The state of one run of :func:`run_sweep`: what waits, runs, ended and was spent."""

    def __init__(self, units: list[Unit], executor: Executor, settings: dict[str, Any]):
        self.units = units
        self.executor = executor
        self.retries: int = settings["retries"]
        self.backoff: float = settings["backoff"]
        self.events: EventLog = settings["events"] or EventLog(None)
        self.registry = settings["registry"]
        self.budget: Budget | None = settings["budget"]
        self.outcomes: dict[str, UnitOutcome] = {}
        self.attempts: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.executed = 0
        self.todo: deque[Unit] = deque()
        self.in_flight: dict[Any, Unit] = {}
        #: the report of each unit in flight whose attempt has ended but is not recorded yet
        self.arrived: dict[Any, UnitReport] = {}
        self.delayed: list[tuple[float, Unit]] = []
        self.stopped: str | None = None
        per_model: dict[str, int] = defaultdict(int)
        for unit in units:
            per_model[unit.model_id] += 1
        self.display = SweepProgress(dict(per_model), enabled=settings["progress"])

    # -- before: skip what is done ------------------------------------------------------------

    def skip_finished(self, runners: dict[str, Any], index: Any) -> None:
        """Queue the units whose result is not complete yet; the others are ``cached``."""
        for unit in self.units:
            runner = runners.get(unit.model_spec) or runner_for(unit, self.registry, index)
            runner.config = unit.config
            cached = runner.cached(runner.index.get(unit.task))
            if cached is None:
                self.todo.append(unit)
                continue
            self.outcomes[unit.key] = cached
            self.display.log(f"{unit.key}: already done, skipped (use --force to recompute)")
            self.events.write("unit_end", unit=unit.key, status="cached", attempt=0)
            self.display.ended(unit.model_id, "cached", was_running=False)
            self.notify(cached, 0)
        todo, total = len(self.todo), len(self.units)
        described = self.executor.describe() if todo else None
        self.events.write(
            "sweep_start", units=total, to_run=todo, done_before=total - todo, executor=described
        )
        if todo:
            done = f"; {total - todo} already done" if todo < total else ""
            self.display.log(f"{todo} of {total} unit(s) to run on {described}{done}")

    # -- the loop -----------------------------------------------------------------------------

    def loop(self) -> None:
        """Start units while they fit and the budget allows, until every unit has ended."""
        if self.todo:
            self.executor.start(list(self.todo))
        while self.todo or self.delayed or self.in_flight:
            now = time.monotonic()
            for item in [d for d in self.delayed if d[0] <= now]:
                self.delayed.remove(item)
                self.todo.appendleft(item[1])
            self.submit_fitting()
            if not self.in_flight:
                if self.stopped is not None:
                    break  # the budget ran out: what waits is not run
                if self.delayed:
                    time.sleep(max(0.0, min(d[0] for d in self.delayed) - time.monotonic()))
                continue
            timeout = 0.5
            if self.delayed:
                timeout = max(0.05, min(timeout, min(d[0] for d in self.delayed) - now))
            for handle, report in self.executor.wait(timeout):
                self.arrived[handle] = report  # ended: what Ctrl-C from here on reports
                report = verify_report(self.in_flight[handle], report)
                unit = self.in_flight.pop(handle)
                del self.arrived[handle]
                self.finish_attempt(unit, report)

    def submit_fitting(self) -> None:
        """Submit waiting units that fit beside the running ones while the budget has room."""
        while self.budget_allows() and (position := self.first_fitting()) is not None:
            unit = self.todo[position]
            del self.todo[position]
            handle = self.executor.submit(unit, list(self.attempts[unit.key]))
            self.in_flight[handle] = unit
            self.executed += 1
            attempt = len(self.attempts[unit.key]) + 1
            self.events.write("unit_submit", unit=unit.key, attempt=attempt)
            self.display.started(unit.model_id)

    def budget_allows(self) -> bool:
        """Whether the budget lets one more unit start now (it records a stop once spent)."""
        if self.budget is None or self.stopped is not None:
            return self.stopped is None
        reason = self.budget.exhausted()
        if reason is not None:
            self.stopped = reason
            self.events.write("budget_stop", reason=reason, spent=self.budget.spent())
            self.display.log(f"stopping: {reason}; running units finish, no new unit starts")
            return False
        return self.budget.room_for(len(self.in_flight))

    def first_fitting(self) -> int | None:
        """The position of the first waiting unit that fits beside the running ones, or None.

        Units start in sweep order, but one that does not fit now (the sandbox or the GPU is
        taken) does not hold back those behind it that do: a sweep of sandboxed units and
        in-process ones keeps every worker busy.
        """
        busy = [u.resources for u in self.in_flight.values()]
        for position, unit in enumerate(self.todo):
            if self.executor.fits(unit, busy):
                return position
        return None

    # -- after each attempt -------------------------------------------------------------------

    def finish_attempt(self, unit: Unit, report: UnitReport) -> None:
        """Record one ended attempt: charge the budget, then schedule a retry for a transient
        failure, else record the unit's outcome."""
        number = len(self.attempts[unit.key]) + 1
        self.events.write(
            "unit_start", at=report.started_at, unit=unit.key, attempt=number, node=report.node
        )
        for line in report.log:
            self.display.log(f"{unit.key}: {line}")
        if self.budget is not None and report.result_path:
            self.budget.charge(Path(report.result_path), report.status)
        if report.status == "failed" and report.transient and number <= self.retries:
            self.retry_later(unit, report, number)
            return
        outcome = _outcome(unit, report)
        self.outcomes[unit.key] = outcome
        self.events.write(
            "unit_end",
            at=report.ended_at,
            unit=unit.key,
            status=report.status,
            reason=report.reason,
            attempt=number,
            node=report.node,
            seconds=round(report.seconds, 3),
        )
        if report.status in ("failed", "skipped", "not_applicable"):
            self.display.log(f"{unit.key}: {report.status}: {report.reason}")
        self.display.ended(unit.model_id, report.status)
        self.notify(outcome, number)

    def retry_later(self, unit: Unit, report: UnitReport, number: int) -> None:
        """Keep a transient failure's attempt and start the unit again after a backoff."""
        self.attempts[unit.key].append(
            {
                "attempt": number,
                "reason": report.reason or "?",
                "node": report.node,
                "seconds": round(report.ended_at - report.started_at, 3),
            }
        )
        delay = backoff_seconds(number, self.backoff)
        self.events.write(
            "unit_retry", unit=unit.key, attempt=number, reason=report.reason, delay_s=delay
        )
        self.display.log(
            f"{unit.key}: attempt {number} failed ({report.reason}); retrying in {delay:.1f}s"
        )
        self.display.retrying(unit.model_id)
        self.delayed.append((time.monotonic() + delay, unit))

    def notify(self, outcome: UnitOutcome, attempts: int) -> None:
        """Tell the registry's ``on_unit_finished`` observers (none without a registry)."""
        if self.registry is None:
            return
        from seebench.events import UnitFinished

        self.registry.notify_unit_finished(
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

    # -- the end ------------------------------------------------------------------------------

    def interrupted(self) -> SweepInterrupted:
        """Stop the executor after Ctrl-C; what to raise."""
        self.executor.cancel()
        for handle, report in self.arrived.items():  # ended before Ctrl-C, not yet recorded
            unit = self.in_flight.pop(handle)
            if unit.key not in self.outcomes and report.status in ("ok", "not_applicable"):
                self.outcomes[unit.key] = _outcome(unit, report)
        running = [u.key for u in self.in_flight.values() if u.key not in self.outcomes]
        self.events.write("sweep_interrupted", running=running, finished=len(self.outcomes))
        self.events.close()
        finished = [self.outcomes[u.key] for u in self.units if u.key in self.outcomes]
        return SweepInterrupted(finished, running)

    def result(self) -> SweepResult:
        """Every unit's outcome in plan order (``not_run`` for those a budget stop left out)."""
        for unit in self.units:
            if unit.key not in self.outcomes:
                self.outcomes[unit.key] = UnitOutcome(
                    unit.model_id,
                    unit.method,
                    unit.task,
                    NOT_RUN,
                    reason=f"not started: {self.stopped}",
                    result_path=unit.result_path(),
                )
        attempts = {k: v for k, v in self.attempts.items() if v}
        outcomes = [self.outcomes[u.key] for u in self.units]
        result = SweepResult(self.units, outcomes, attempts, self.executed, self.stopped)
        counts: dict[str, int] = defaultdict(int)
        for outcome in outcomes:
            counts[outcome.status] += 1
        spent = self.budget.spent() if self.budget is not None else None
        self.events.write(
            "sweep_end",
            counts=dict(counts),
            executed=self.executed,
            stopped=self.stopped,
            spent=spent,
        )
        self.events.close()
        return result


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
    budget: Budget | None = None,
) -> SweepResult:
    """Run ``units`` on ``executor``; see the module docstring.

    ``runners`` (model spec -> runner, from :func:`~seebench.executors.plan.plan_sweep`) tell
    which units are finished already; ``retries`` is how many more attempts a transient
    failure gets, ``backoff`` the first wait in seconds (doubled for each further attempt);
    ``budget`` (tokens, cost) is charged as units finish, and once it is spent no further unit
    starts (the result's ``stopped`` says why). Raises :class:`SweepInterrupted` on Ctrl-C
    after stopping the executor.
    """
    settings = {
        "retries": retries,
        "backoff": backoff,
        "events": events,
        "registry": registry,
        "budget": budget,
        "progress": progress,
    }
    sweep = _Sweep(list(units), executor, settings)
    with sweep.display:
        sweep.skip_finished(runners or {}, index)
        try:
            sweep.loop()
        except KeyboardInterrupt:
            raise sweep.interrupted() from None
        finally:
            executor.close()
    return sweep.result()


def rerun_commands(
    result: SweepResult, base_args: Sequence[str], keys: Iterable[str] | None = None
) -> list[str]:
    """One ``seebench eval`` command per model that runs only some units (the failed ones by
    default, else those of ``keys``): ``--model``, ``--method`` and ``--tasks`` plus
    ``base_args`` (the sweep's other options)."""
    wanted = (
        set(keys)
        if keys is not None
        else {f"{o.model_id}/{o.method}/{o.task}" for o in result.failed}
    )
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for unit in result.units:
        if unit.key in wanted:
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
    from seebench.secrets import scrub

    return scrub(lines)  # a reason may quote a server's reply, a command an option's value
