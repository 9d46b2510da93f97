"""Runs (model, method, task) units and writes one result per unit, resumably.

A unit is complete when its result JSON passes :func:`seebench.results.verify.verify_result`
(intact, schema-valid, samples file matching its recorded sha256) with status ``ok`` or
``not_applicable`` and the same run-config hash; such units are skipped on a rerun unless
``force`` is set. Each unit runs under a lock (:mod:`seebench.runner.locks`). The
samples file is written before the result, both atomically, so an interrupted run (Ctrl-C or
``kill -9``) never leaves a result that points at missing or partial samples.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench import __version__
from seebench.data.dataset import DEFAULT_SEED, TaskData, load_task_data
from seebench.errors import DataMissingError, NotApplicableError, SeebenchError
from seebench.events import UnitFinished
from seebench.methods.base import MethodOutput, RunContext
from seebench.models import ModelRef, resolve_model
from seebench.registry import Registry
from seebench.results.io import (
    RESULT_SCHEMA_VERSION,
    artifacts_dir,
    result_paths,
    write_result,
    write_samples,
)
from seebench.results.verify import verify_result
from seebench.runner.environment import environment
from seebench.runner.locks import UnitBusy, lock_path, unit_lock
from seebench.runner.progress import RunProgress
from seebench.scoring.aggregate import DEFAULT_BOOTSTRAP
from seebench.scoring.run import configure_scorers
from seebench.scoring.unit import UnitScoring, sample_records, score_unit
from seebench.tasks.index import TaskIndex
from seebench.tasks.spec import TaskSpec

COMPLETE_STATUSES = ("ok", "not_applicable")
#: Options of ``-o`` that the runner itself takes (never passed to a method).
RUN_OPTIONS = ("repeats",)


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: ``outcomes`` are the units finished before it, ``task`` the one
    that was interrupted (nothing of it was written)."""

    def __init__(self, outcomes: list[UnitOutcome], task: str):
        super().__init__(task)
        self.outcomes = outcomes
        self.task = task


@dataclass
class EvalConfig:
    """The options of one ``seebench eval`` invocation."""

    model: str
    tasks: str
    method: str | None = None
    output: Path = Path("results")
    limit: int | None = None
    seed: int = DEFAULT_SEED
    force: bool = False
    shard: tuple[int, int] | None = None  # (i, n), 1-based
    method_options: dict[str, Any] = field(default_factory=dict)
    progress: bool = True
    predict_only: bool = False  # write predictions, score later with ``seebench score``
    bootstrap: int = DEFAULT_BOOTSTRAP  # resamples for metric intervals (0: none)


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
    seconds: float = 0.0
    result_path: Path | None = None
    note: str | None = None  # a method's one-line info["summary"], e.g. the selected parameters


def _summary(info: Any) -> str | None:
    summary = info.get("summary") if isinstance(info, dict) else None
    return summary if isinstance(summary, str) else None


def parse_shard(text: str) -> tuple[int, int]:
    """Parse ``i/n`` (1-based): ``2/4`` is the second of four shards."""
    try:
        i_text, n_text = text.split("/")
        i, n = int(i_text), int(n_text)
    except ValueError:
        raise SeebenchError(f"--shard {text!r}: expected i/n, e.g. 1/4") from None
    if n < 1 or not 1 <= i <= n:
        raise SeebenchError(f"--shard {text!r}: need 1 <= i <= n")
    return i, n


def run_config(config: EvalConfig, model: ModelRef, method: str, task: TaskSpec,
               scorers: dict[str, Any] | None = None, plugins: dict[str, str] | None = None) -> dict[str, Any]:
    """Everything that determines a unit's result; its hash decides whether to recompute.

    ``scorers`` are the identities of the task's scorers (a judge model's included) and
    ``plugins`` the ``dist==version`` of every plugin that contributed to the unit.
    """
    options = {**task.method_options(method), **config.method_options}
    return {
        "model": model.summary(),
        "method": method,
        "method_options": {k: v for k, v in options.items() if k not in RUN_OPTIONS},
        "task": {"name": task.name, "version": task.version, "config_hash": task.config_hash},
        "seed": config.seed,
        "limit": config.limit,
        "repeats": unit_repeats(config, task),
        "scorers": scorers or {},
        "plugins": plugins or {},
        "bootstrap": config.bootstrap,
    }


def unit_repeats(config: EvalConfig, task: TaskSpec) -> int:
    """Generations per item: ``-o repeats=n`` wins over the task's ``repeats``."""
    value = config.method_options.get("repeats", task.repeats)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise SeebenchError(f"-o repeats={value!r}: expected an integer >= 1")
    return value


def config_hash(config: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:16]


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

    def check_options(self, options: dict[str, Any]) -> None:
        """Fail with one line on an unknown or ill-typed method option (before any work)."""
        schema_of = getattr(self.method, "option_schema", None)
        schema = schema_of(self.model) if callable(schema_of) else None
        method_options = {k: v for k, v in options.items() if k not in RUN_OPTIONS}
        problems = self.method_entry.option_problems(method_options, schema)
        if problems:
            raise SeebenchError(problems[0] + (f" (model {self.model.spec!r})" if schema is not None else ""))

    def _plugins(self, task: TaskSpec) -> dict[str, str]:
        """``dist==version`` of every plugin that contributes to ``task``'s unit."""
        names = {self.method_entry.plugin, self.registry.model_entry(self.model.spec).plugin,
                 self.registry.task_type(task.type).plugin, self.index.origins.get(task.name, "?")}
        names |= {self.registry.metric(m).plugin for m in task.metrics if m in self.registry.metrics}
        names |= {self.registry.scorer(s).plugin for s in task.scorers if s in self.registry.scorers}
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
        with RunProgress(len(tasks), enabled=self.config.progress) as progress:
            for task in tasks:
                progress.describe(task.name)
                try:
                    outcome = self._run_unit_locked(task, progress)
                except KeyboardInterrupt:
                    raise RunInterrupted(outcomes, task.name) from None
                outcomes.append(outcome)
                if outcome.status == "cached":
                    progress.log(f"{task.name}: already done, skipped (use --force to recompute)")
                elif outcome.status in ("skipped", "failed", "not_applicable"):
                    progress.log(f"{task.name}: {outcome.status}: {outcome.reason}")
                progress.unit_done()
                self._notify(outcome)
        return outcomes

    def _notify(self, outcome: UnitOutcome) -> None:
        from seebench.plugin_manager import notify_unit_finished

        notify_unit_finished(
            UnitFinished(
                model_id=outcome.model_id, method=outcome.method, task=outcome.task,
                status=outcome.status, reason=outcome.reason, metrics=dict(outcome.metrics),
                result_path=outcome.result_path, seconds=outcome.seconds,
            )
        )

    def _run_unit_locked(self, task: TaskSpec, progress: RunProgress) -> UnitOutcome:
        """:meth:`run_unit` under the unit's lock; a unit another live run holds is skipped."""
        result_path, _ = result_paths(self.config.output, self.model.id, self.method_name, task.name)
        try:
            with unit_lock(lock_path(result_path)):
                return self.run_unit(task, progress)
        except UnitBusy as busy:
            status = "skipped"
            reason = f"another run ({busy.holder}) is computing it now; rerun later to pick up its result"
        except OSError as exc:  # e.g. a directory where the result file should go
            where = exc.filename2 or exc.filename
            detail = f"{exc.strerror}: {where}" if exc.strerror and where else str(exc)
            status, reason = "failed", f"cannot write the result: {detail}"
        return UnitOutcome(self.model.id, self.method_name, task.name, status, reason=reason,
                           result_path=result_path)

    def run_unit(self, task: TaskSpec, progress: RunProgress) -> UnitOutcome:
        started = time.perf_counter()
        result_path, samples_path = result_paths(self.config.output, self.model.id, self.method_name, task.name)
        outcome = UnitOutcome(self.model.id, self.method_name, task.name, "ok",
                              primary_metric=task.primary_metric, result_path=result_path)
        try:
            scorers = {r.name: r.identity for r in configure_scorers(task, self.registry)}
            unit_config = run_config(self.config, self.model, self.method_name, task, scorers, self._plugins(task))
        except SeebenchError as exc:  # a bad scorer option or repeats value: this unit only
            unit_config = run_config(self.config, self.model, self.method_name, task)
            base = self._result_base(task, unit_config, config_hash(unit_config))
            return self._finish_without_metrics(outcome, base, "failed", str(exc), started, result_path)
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
            outcome.reason = None if previous["status"] == "ok" else previous.get("reason")
            outcome.note = _summary(previous.get("info"))
            return outcome

        if (not self.config.force and previous is not None and previous.get("status") == "ok"
                and previous.get("scored") is False and previous.get("run", {}).get("config_hash") == unit_hash):
            return self._score_saved(task, outcome, result_path, started)

        base = self._result_base(task, unit_config, unit_hash)
        timings: dict[str, float] = {}
        try:
            reason = self._not_applicable(task)
            if reason:
                raise NotApplicableError(reason)
            t0 = time.perf_counter()
            data = load_task_data(task, self.registry, seed=self.config.seed, limit=self.config.limit)
            timings["data_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            outputs = self._run_method(task, data, progress, result_path, int(unit_config["repeats"]))
            timings["method_s"] = time.perf_counter() - t0
            t0 = time.perf_counter()
            scoring = None
            if not self.config.predict_only:
                scoring = score_unit(
                    task, data.test, [[p.prediction for p in o.predictions] for o in outputs], self.registry,
                    artifacts=artifacts_dir(result_path), seed=self.config.seed, bootstrap=self.config.bootstrap,
                    options=self.config.method_options,
                )
            records = sample_records(data.test, [o.predictions for o in outputs], scoring)
            timings["metrics_s"] = time.perf_counter() - t0
        except NotApplicableError as exc:
            return self._finish_without_metrics(outcome, base, "not_applicable", str(exc), started, result_path)
        except DataMissingError as exc:
            return self._finish_without_metrics(outcome, base, "skipped", str(exc), started, result_path)
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            detail = traceback.format_exc(limit=8)
            reason = f"{type(exc).__name__}: {exc}".splitlines()[0]
            return self._finish_without_metrics(outcome, base, "failed", reason, started, result_path, detail)

        timings["total_s"] = time.perf_counter() - started
        samples_sha256 = write_samples(samples_path, records)
        n = len(data.test)
        invalid = sum(p.prediction is None for o in outputs for p in o.predictions)
        result = {
            **base,
            "data": {"checksums": data.checksums, "counts": data.counts()},
            "n": n,
            "invalid": invalid,
            "invalid_rate": invalid / (n * len(outputs)) if n else 0.0,
            "info": outputs[0].info if len(outputs) == 1 else {"repeats": [o.info for o in outputs]},
            "timings": timings,
            "samples_file": samples_path.name,
            **scoring_fields(scoring),
            "samples_sha256": samples_sha256,
        }
        write_result(result_path, result)
        outcome.metrics, outcome.n = result["metrics"], n
        outcome.note = _summary(outputs[0].info)
        outcome.seconds = timings["total_s"]
        return outcome

    def _score_saved(self, task: TaskSpec, outcome: UnitOutcome, result_path: Path, started: float) -> UnitOutcome:
        """Score predictions a ``--predict-only`` run saved, without calling the model."""
        from seebench.scoring.rescore import rescore

        try:
            done = rescore(result_path, self.registry, self.index, bootstrap=self.config.bootstrap)
        except SeebenchError as exc:
            outcome.status, outcome.reason = "failed", f"scoring saved predictions: {exc}"
            return outcome
        outcome.metrics = done.metrics if done else {}
        outcome.note = "scored saved predictions"
        outcome.seconds = time.perf_counter() - started
        return outcome

    def _not_applicable(self, task: TaskSpec) -> str | None:
        if not self.method_entry.applies_to(task.type, task.behaviour):
            return f"method {self.method_name!r} does not support {task.type} tasks"
        return self.method.not_applicable(task, self.model)

    def _run_method(self, task: TaskSpec, data: TaskData, progress: RunProgress, result_path: Path,
                    repeats: int) -> list[MethodOutput]:
        options = {k: v for k, v in {**task.method_options(self.method_name), **self.config.method_options}.items()
                   if k not in RUN_OPTIONS}
        outputs: list[MethodOutput] = []
        for repeat in range(repeats):
            seed = self.config.seed + repeat
            if repeats > 1 and "seed" in options:
                options = {**options, "seed": int(options["seed"]) + 1}
            context = RunContext(
                task=task, data=data, model=self.model, seed=seed, options=options,
                work_dir=result_path.parent / f".{task.name}.work", advance=progress.add_samples,
                repeat=repeat, registry=self.registry,
            )
            output = self.method.run(context)
            if len(output.predictions) != len(data.test):
                raise SeebenchError(
                    f"method {self.method_name!r} returned {len(output.predictions)} predictions "
                    f"for {len(data.test)} test samples"
                )
            for sample, pred in zip(data.test, output.predictions, strict=True):
                if pred.sample_id != sample.id:
                    raise SeebenchError(f"prediction for {pred.sample_id!r} is out of order (expected {sample.id!r})")
            outputs.append(output)
        return outputs

    def _result_base(self, task: TaskSpec, unit_config: dict[str, Any], unit_hash: str) -> dict[str, Any]:
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
        }

    def _finish_without_metrics(
        self, outcome: UnitOutcome, base: dict[str, Any], status: str, reason: str,
        started: float, result_path: Path, detail: str | None = None,
    ) -> UnitOutcome:
        seconds = time.perf_counter() - started
        result = {**base, "status": status, "reason": reason, "timings": {"total_s": seconds},
                  "samples_file": None}
        if detail:
            result["info"] = {"traceback": detail}
        write_result(result_path, result)
        outcome.status, outcome.reason, outcome.seconds = status, reason, seconds
        return outcome


def scoring_fields(scoring: UnitScoring | None) -> dict[str, Any]:
    """The result keys that scoring fills (``scored: false`` and no metrics when predict-only)."""
    if scoring is None:
        return {"scored": False, "metrics": {}}
    fields: dict[str, Any] = {"scored": True, "metrics": scoring.metrics, "metric_info": scoring.metric_info,
                              "scorers": scoring.scorer_identities}
    if scoring.repeat_metrics or scoring.item_spread:
        fields["repeat_metrics"] = scoring.repeat_metrics
        fields["item_spread"] = scoring.item_spread
    return fields


def run_eval(config: EvalConfig, registry: Registry | None = None, index: TaskIndex | None = None) -> list[UnitOutcome]:
    """Evaluate ``config.model`` on the selected tasks; returns one outcome per unit."""
    if registry is None or index is None:
        from seebench.plugin_manager import get_registry
        from seebench.tasks.index import get_task_index

        registry = registry or get_registry()
        index = index or get_task_index()
    return Runner(config, registry, index).run()
