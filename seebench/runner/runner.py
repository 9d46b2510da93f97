"""Runs (model, method, task) units and writes one result per unit, resumably.

A unit is complete when its result JSON passes :func:`seebench.results.verify.verify_result`
(intact, schema-valid, samples file matching its recorded sha256) with status ``ok`` or
``not_applicable`` and the same run-config hash; such units are skipped on a rerun unless
``force`` is set. Each unit runs under a lock (:mod:`seebench.runner.locks`). The
samples file is written before the result, both atomically, so an interrupted run (Ctrl-C or
``kill -9``) never leaves a result that points at missing or partial samples.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench import __version__
from seebench.data.dataset import TaskData, load_task_data
from seebench.errors import DataMissingError, NotApplicableError, SeebenchError
from seebench.events import UnitFinished
from seebench.methods.base import MethodOutput, RunContext
from seebench.models import resolve_model
from seebench.registry import Registry
from seebench.results.io import (
    RESULT_SCHEMA_VERSION,
    artifacts_dir,
    remove_stale_temps,
    result_paths,
    write_result,
    write_samples,
)
from seebench.results.verify import verify_result
from seebench.runner.budget import BudgetExhausted, UnitTimeLimit
from seebench.runner.caveats import unit_caveats
from seebench.runner.config import (
    RUN_OPTIONS,
    EvalConfig,
    config_hash,
    run_config,
    scoring_fields,
)
from seebench.runner.environment import environment
from seebench.runner.locks import UnitBusy, lock_path, unit_lock
from seebench.runner.progress import RunProgress
from seebench.scoring.run import configure_scorers
from seebench.scoring.unit import sample_records, score_unit
from seebench.tasks.index import TaskIndex
from seebench.tasks.spec import TaskSpec

COMPLETE_STATUSES = ("ok", "not_applicable")


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: ``outcomes`` are the units finished before it, ``task`` the one
    that was interrupted (nothing of it was written)."""

    def __init__(self, outcomes: list[UnitOutcome], task: str):
        super().__init__(task)
        self.outcomes = outcomes
        self.task = task


@dataclass
class UnitOutcome:
    """What happened to one unit (also the row of the summary table)."""

    model_id: str
    method: str
    task: str
    status: str  # ok, cached, not_applicable, skipped, failed
    reason: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    primary_metric: str | None = None
    n: int | None = None
    excluded: int | None = None  # scores left out of the metrics (unscored samples x repeats)
    invalid: int | None = None  # answers that could not be read (samples x repeats)
    repeats: int = 1
    seconds: float = 0.0
    result_path: Path | None = None
    note: str | None = None  # a method's one-line info["summary"], e.g. the selected parameters
    # the exception of a failed unit (executors tell transient failures from the rest by it)
    exception: BaseException | None = field(default=None, repr=False, compare=False)


def _summary(info: Any) -> str | None:
    summary = info.get("summary") if isinstance(info, dict) else None
    return summary if isinstance(summary, str) else None


class Runner:
    """Runs the units of one evaluation; see :func:`run_eval`."""

    def __init__(self, config: EvalConfig, registry: Registry, index: TaskIndex):
        self.config = config
        self.registry = registry
        self.index = index
        self.model, default_method = resolve_model(config.model, registry)
        self.method_name = config.method or default_method
        self.method_entry = registry.method(self.method_name)
        self.method = self.method_entry.load()(**{})
        self.check_options(config.method_options)
        #: earlier failed attempts of the unit being run (set by executors that retry)
        self.attempts: list[dict[str, Any]] = []

    def check_options(self, options: dict[str, Any]) -> None:
        """Fail with one line on an unknown or ill-typed method option (before any work)."""
        schema_of = getattr(self.method, "option_schema", None)
        schema = schema_of(self.model) if callable(schema_of) else None
        method_options = {k: v for k, v in options.items() if k not in RUN_OPTIONS}
        problems = self.method_entry.option_problems(method_options, schema)
        if problems:
            raise SeebenchError(
                problems[0] + (f" (model {self.model.spec!r})" if schema is not None else "")
            )

    def _plugins(self, task: TaskSpec) -> dict[str, str]:
        """``dist==version`` of every plugin that contributes to ``task``'s unit."""
        names = {
            self.method_entry.plugin,
            self.registry.model_entry(self.model.spec).plugin,
            self.registry.task_type(task.type).plugin,
            self.index.origins.get(task.name, "?"),
        }
        names |= {
            self.registry.metric(m).plugin for m in task.metrics if m in self.registry.metrics
        }
        names |= {
            self.registry.scorer(s).plugin for s in task.scorers if s in self.registry.scorers
        }
        return {name: self.registry.distributions.get(name, "?") for name in sorted(names - {"?"})}

    def planned_tasks(self) -> list[TaskSpec]:
        tasks = self.index.select(self.config.tasks)
        if self.config.shard:
            i, n = self.config.shard
            tasks = [t for position, t in enumerate(tasks) if position % n == i - 1]
        return tasks

    def run(self) -> list[UnitOutcome]:
        tasks = self.planned_tasks()
        outcomes: list[UnitOutcome] = []
        budget = self.config.budget
        with RunProgress(len(tasks), enabled=self.config.progress) as progress:
            for position, task in enumerate(tasks):
                if budget is not None and (stop := budget.exhausted()):
                    raise BudgetExhausted(stop, outcomes, [t.name for t in tasks[position:]])
                progress.describe(task.name)
                try:
                    with budget.unit_timer(task.name) if budget else contextlib.nullcontext():
                        outcome = self._run_unit_locked(task, progress)
                except KeyboardInterrupt:
                    raise RunInterrupted(outcomes, task.name) from None
                except UnitTimeLimit as exc:  # raised outside the unit's own error handling
                    outcome = UnitOutcome(
                        self.model.id, self.method_name, task.name, "failed", reason=str(exc)
                    )
                if budget is not None:
                    budget.charge(outcome.result_path, outcome.status)
                outcomes.append(outcome)
                if outcome.status == "cached":
                    progress.log(f"{task.name}: already done, skipped (use --force to recompute)")
                elif outcome.status in ("skipped", "failed", "not_applicable"):
                    progress.log(f"{task.name}: {outcome.status}: {outcome.reason}")
                progress.unit_done()
                self._notify(outcome)
        return outcomes

    def _notify(self, outcome: UnitOutcome) -> None:
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
            )
        )

    def _run_unit_locked(self, task: TaskSpec, progress: RunProgress) -> UnitOutcome:
        """:meth:`run_unit` under the unit's lock; a unit another live run holds is skipped."""
        result_path, _ = result_paths(
            self.config.output, self.model.id, self.method_name, task.name
        )
        try:
            with unit_lock(lock_path(result_path)):
                for written in result_paths(
                    self.config.output, self.model.id, self.method_name, task.name
                ):
                    remove_stale_temps(written)  # left by a run killed mid-write
                return self.run_unit(task, progress)
        except UnitBusy as busy:
            status = "skipped"
            reason = f"another run ({busy.holder}) is computing it now; rerun later to pick up its result"
        except OSError as exc:  # e.g. a directory where the result file should go
            where = exc.filename2 or exc.filename
            detail = f"{exc.strerror}: {where}" if exc.strerror and where else str(exc)
            status, reason = "failed", f"cannot write the result: {detail}"
        return UnitOutcome(
            self.model.id,
            self.method_name,
            task.name,
            status,
            reason=reason,
            result_path=result_path,
        )

    def run_unit(self, task: TaskSpec, progress: RunProgress) -> UnitOutcome:
        started = time.perf_counter()
        result_path, samples_path = result_paths(
            self.config.output, self.model.id, self.method_name, task.name
        )
        outcome = UnitOutcome(
            self.model.id,
            self.method_name,
            task.name,
            "ok",
            primary_metric=task.primary_metric,
            result_path=result_path,
        )
        try:
            runs = configure_scorers(task, self.registry, run_options=self.config.method_options)
            scorers = {r.name: r.identity for r in runs}
            unit_config = run_config(
                self.config, self.model, self.method_name, task, scorers, self._plugins(task)
            )
        except SeebenchError as exc:  # a bad scorer option or repeats value: this unit only
            unit_config = run_config(self.config, self.model, self.method_name, task)
            base = self._result_base(task, unit_config, config_hash(unit_config))
            return self._finish_without_metrics(
                outcome, base, "failed", str(exc), started, result_path
            )
        unit_hash = config_hash(unit_config)
        check = verify_result(result_path, samples_path, unit_hash)
        previous = check.result
        if check.problem and not self.config.force:
            progress.log(f"{task.name}: recomputing: {check.problem}")
        if (
            not self.config.force
            and previous is not None
            and previous.get("status") in COMPLETE_STATUSES
            and previous.get("run", {}).get("config_hash") == unit_hash
            and (previous.get("scored", True) or self.config.predict_only)
        ):
            outcome.status = "cached"
            outcome.metrics = previous.get("metrics", {})
            outcome.n = previous.get("n")
            outcome.invalid = previous.get("invalid")
            outcome.excluded = int((previous.get("unscored") or {}).get("count", 0))
            outcome.repeats = int(previous.get("run", {}).get("config", {}).get("repeats") or 1)
            outcome.reason = None if previous["status"] == "ok" else previous.get("reason")
            outcome.note = _summary(previous.get("info"))
            return outcome

        if (
            not self.config.force
            and previous is not None
            and previous.get("status") == "ok"
            and previous.get("scored") is False
            and previous.get("run", {}).get("config_hash") == unit_hash
        ):
            return self._score_saved(task, outcome, result_path, started)

        base = self._result_base(task, unit_config, unit_hash)
        timings: dict[str, float] = {}
        try:
            reason = self._not_applicable(task)
            if reason:
                raise NotApplicableError(reason)
            t0 = time.perf_counter()
            data = load_task_data(
                task, self.registry, seed=self.config.seed, limit=self.config.limit
            )
            timings["data_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            outputs = self._run_method(
                task, data, progress, result_path, int(unit_config["repeats"])
            )
            timings["method_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            scoring = None
            if not self.config.predict_only:
                scoring = score_unit(
                    task,
                    data.test,
                    [[p.prediction for p in o.predictions] for o in outputs],
                    self.registry,
                    artifacts=artifacts_dir(result_path),
                    seed=self.config.seed,
                    bootstrap=self.config.bootstrap,
                    options=self.config.method_options,
                )
            records = sample_records(data.test, [o.predictions for o in outputs], scoring)
            timings["metrics_s"] = time.perf_counter() - t0
        except NotApplicableError as exc:
            return self._finish_without_metrics(
                outcome, base, "not_applicable", str(exc), started, result_path
            )
        except DataMissingError as exc:
            return self._finish_without_metrics(
                outcome, base, "skipped", str(exc), started, result_path
            )
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            detail = traceback.format_exc(limit=8)
            # a SeebenchError already is one line for the user; other exceptions name their class
            text = str(exc) if isinstance(exc, SeebenchError) else f"{type(exc).__name__}: {exc}"
            reason = (text.splitlines() or [type(exc).__name__])[0]
            outcome.exception = exc
            return self._finish_without_metrics(
                outcome, base, "failed", reason, started, result_path, detail
            )

        samples_sha256 = write_samples(samples_path, records)
        n = len(data.test)
        invalid = sum(p.prediction is None for o in outputs for p in o.predictions)
        base.update(
            {
                "data": {"checksums": data.checksums, "counts": data.counts()},
                "n": n,
                "invalid": invalid,
                "invalid_rate": invalid / (n * len(outputs)) if n else 0.0,
                "info": outputs[0].info
                if len(outputs) == 1
                else {"repeats": [o.info for o in outputs]},
                "samples_file": samples_path.name,
                "samples_sha256": samples_sha256,
            }
        )
        if scoring is not None and scoring.all_unscored:
            # nothing could be scored (no sandbox could start...): keep the predictions (for
            # 'seebench score' later), skip the unit with the reason
            base.update(
                scored=False,
                scorers=scoring.scorer_identities,
                unscored={"count": scoring.unscored, "reasons": scoring.unscored_reasons},
            )
            return self._finish_without_metrics(
                outcome, base, "skipped", scoring.unscored_summary(), started, result_path
            )
        caveats = unit_caveats(task, data.test, self.config.limit)
        for line in caveats:
            progress.log(f"{task.name}: warning: {line}")
        timings["total_s"] = time.perf_counter() - started
        result = {**base, "timings": timings, **scoring_fields(scoring)}
        if caveats:
            result["warnings"] = caveats
        write_result(result_path, result)
        outcome.metrics, outcome.n = result["metrics"], n
        outcome.invalid = invalid
        outcome.excluded = scoring.unscored if scoring is not None else None
        outcome.repeats = len(outputs)
        outcome.note = _summary(outputs[0].info)
        outcome.seconds = timings["total_s"]
        return outcome

    def _score_saved(
        self, task: TaskSpec, outcome: UnitOutcome, result_path: Path, started: float
    ) -> UnitOutcome:
        """Score predictions a ``--predict-only`` run saved, without calling the model."""
        from seebench.runner.rescore import rescore

        try:
            done = rescore(
                result_path,
                self.registry,
                self.index,
                bootstrap=self.config.bootstrap,
                run_options=self.config.method_options,
                lock=False,  # held by _run_unit_locked
            )
        except SeebenchError as exc:
            outcome.status, outcome.reason = "failed", f"scoring saved predictions: {exc}"
            return outcome
        outcome.metrics = done.metrics if done else {}
        if done is not None and done.reason:  # still nothing could be scored
            outcome.status, outcome.reason = "skipped", done.reason
        outcome.note = "scored saved predictions"
        outcome.seconds = time.perf_counter() - started
        return outcome

    def _not_applicable(self, task: TaskSpec) -> str | None:
        if not self.method_entry.applies_to(task.type, task.behaviour):
            return f"method {self.method_name!r} does not support {task.type} tasks"
        return self.method.not_applicable(task, self.model)

    def _run_method(
        self, task: TaskSpec, data: TaskData, progress: RunProgress, result_path: Path, repeats: int
    ) -> list[MethodOutput]:
        options = {
            k: v
            for k, v in {
                **task.method_options(self.method_name),
                **self.config.method_options,
            }.items()
            if k not in RUN_OPTIONS
        }
        outputs: list[MethodOutput] = []
        for repeat in range(repeats):
            seed = self.config.seed + repeat
            if repeats > 1 and "seed" in options:
                options = {**options, "seed": int(options["seed"]) + 1}
            context = RunContext(
                task=task,
                data=data,
                model=self.model,
                seed=seed,
                options=options,
                work_dir=result_path.parent / f".{task.name}.work",
                advance=progress.add_samples,
                repeat=repeat,
                registry=self.registry,
            )
            output = self.method.run(context)
            if len(output.predictions) != len(data.test):
                raise SeebenchError(
                    f"method {self.method_name!r} returned {len(output.predictions)} predictions "
                    f"for {len(data.test)} test samples"
                )
            for sample, pred in zip(data.test, output.predictions, strict=True):
                if pred.sample_id != sample.id:
                    raise SeebenchError(
                        f"prediction for {pred.sample_id!r} is out of order (expected {sample.id!r})"
                    )
            outputs.append(output)
        return outputs

    def _result_base(
        self, task: TaskSpec, unit_config: dict[str, Any], unit_hash: str
    ) -> dict[str, Any]:
        return {
            "schema_version": RESULT_SCHEMA_VERSION,
            "status": "ok",
            "reason": None,
            "seebench_version": __version__,
            "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "model": self.model.summary(),
            "method": self.method_name,
            "task": task.summary(),
            "run": {
                "seed": self.config.seed,
                "limit": self.config.limit,
                "shard": list(self.config.shard) if self.config.shard else None,
                "config": unit_config,
                "config_hash": unit_hash,
            },
            "metrics": {},
            "primary_metric": task.primary_metric,
            "timings": {},
            "environment": environment(),
            "artifacts": artifacts_dir(Path(task.name)).name,
            **({"attempts": list(self.attempts)} if self.attempts else {}),
        }

    def _finish_without_metrics(
        self,
        outcome: UnitOutcome,
        base: dict[str, Any],
        status: str,
        reason: str,
        started: float,
        result_path: Path,
        detail: str | None = None,
    ) -> UnitOutcome:
        seconds = time.perf_counter() - started
        result = {
            "samples_file": None,
            **base,
            "status": status,
            "reason": reason,
            "timings": {"total_s": seconds},
        }
        if detail:
            result["info"] = {"traceback": detail}
        write_result(result_path, result)
        outcome.status, outcome.reason, outcome.seconds = status, reason, seconds
        return outcome


def run_eval(config: EvalConfig, registry: Registry, index: TaskIndex) -> list[UnitOutcome]:
    """Evaluate ``config.model`` on the selected tasks of ``index``; returns one outcome per
    unit (the command line hands in the process-wide registry and task index)."""
    return Runner(config, registry, index).run()
