"""Runs one (model, method, task) unit and writes its result, resumably.

A :class:`Runner` holds one model and method; the sweep driver
(:mod:`seebench.executors.driver`, the one evaluation loop) asks it, unit by unit, through its
public phases: :meth:`Runner.planned_tasks` (plan), :meth:`Runner.cached` (is the unit done
already?) and :meth:`Runner.run_unit` (under the unit's lock: :meth:`Runner.compute` then
:meth:`Runner.record`). Workers of every executor call the same phases.

A unit is complete when its result JSON passes :func:`seebench.results.verify.verify_result`
(intact, schema-valid, samples file matching its recorded sha256) with status ``ok`` or
``not_applicable`` and the same run-config hash; such units are skipped on a rerun unless
``force`` is set. Each unit runs under a lock (:mod:`seebench.runner.locks`). The
samples file is written before the result, both atomically, so an interrupted run (Ctrl-C or
``kill -9``) never leaves a result that points at missing or partial samples.
"""

from __future__ import annotations

import datetime as dt
import resource
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from seebench import __version__
from seebench.data.dataset import TaskData, load_task_data
from seebench.errors import DataMissingError, NotApplicableError, SeebenchError
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
from seebench.runner.budget import UnitTimeLimit, within_time_limit
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
from seebench.scoring.run import configure_scorers
from seebench.scoring.unit import UnitScoring, sample_records, score_unit
from seebench.tasks.index import TaskIndex
from seebench.tasks.spec import TaskSpec

COMPLETE_STATUSES = ("ok", "not_applicable")


class UnitProgress(Protocol):
    """Where a unit reports while it runs: one-line messages and samples done."""

    def log(self, message: str) -> None:
        """Show one line about the unit."""

    def add_samples(self, n: int) -> None:
        """Count ``n`` more samples done."""


class QuietProgress:
    """A :class:`UnitProgress` that keeps the unit's lines (a worker hands them back)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.samples = 0

    def log(self, message: str) -> None:
        """Keep ``message``."""
        self.lines.append(message)

    def add_samples(self, n: int) -> None:
        """Count ``n`` samples."""
        self.samples += n


@dataclass
class UnitOutcome:
    """What happened to one unit (also the row of the summary table)."""

    model_id: str
    method: str
    task: str
    status: str  # ok, cached, not_applicable, skipped, failed, not_run
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


@dataclass
class UnitWork:
    """What :meth:`Runner.compute` produced for one unit; nothing of it is written yet."""

    data: TaskData
    outputs: list[MethodOutput]
    scoring: UnitScoring | None
    records: list[dict[str, Any]]
    timings: dict[str, float]


def _summary(info: Any) -> str | None:
    summary = info.get("summary") if isinstance(info, dict) else None
    return summary if isinstance(summary, str) else None


def _failure_reason(exc: BaseException) -> str:
    """A failed unit's one-line reason: a SeebenchError's own line, else the class and text."""
    text = str(exc) if isinstance(exc, SeebenchError) else f"{type(exc).__name__}: {exc}"
    return (text.splitlines() or [type(exc).__name__])[0]


class Runner:
    """The phases of the units of one model and method; see the module docstring."""

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

    def plugins(self, task: TaskSpec) -> dict[str, str]:
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

    # -- plan ---------------------------------------------------------------------------------

    def planned_tasks(self) -> list[TaskSpec]:
        """The tasks ``config.tasks`` selects (before any sharding: the plan shards units)."""
        return self.index.select(self.config.tasks)

    def paths(self, task: TaskSpec) -> tuple[Path, Path]:
        """Where ``task``'s result and samples go."""
        return result_paths(self.config.output, self.model.id, self.method_name, task.name)

    def unit_config(self, task: TaskSpec) -> dict[str, Any]:
        """Everything that determines ``task``'s result (raises a one-line
        :class:`SeebenchError` on a bad scorer option or repeats value)."""
        runs = configure_scorers(task, self.registry, run_options=self.config.method_options)
        scorers = {r.name: r.identity for r in runs}
        return run_config(
            self.config, self.model, self.method_name, task, scorers, self.plugins(task)
        )

    def outcome(self, task: TaskSpec, status: str, **fields: Any) -> UnitOutcome:
        """An outcome of ``task``'s unit with this runner's model and method."""
        fields.setdefault("result_path", self.paths(task)[0])
        return UnitOutcome(self.model.id, self.method_name, task.name, status, **fields)

    # -- cached? ------------------------------------------------------------------------------

    def _keep_full_result(self, task: TaskSpec) -> UnitOutcome | None:
        """A ``--samples`` run never replaces a full result (one of every test item) by its
        few items, unless ``--force``: the unit is skipped, nothing written."""
        if self.config.samples is None or self.config.force:
            return None
        from seebench.results.verify import verify_result

        path = self.paths(task)[0]
        previous = verify_result(path).result if path.exists() else None
        run = (previous or {}).get("run") or {}
        if (
            not previous
            or previous.get("status") != "ok"
            or run.get("limit") is not None
            or run.get("samples") is not None
        ):
            return None
        return self.outcome(
            task,
            "skipped",
            reason=f"{path} holds a full result, which a --samples run would replace: give "
            "another --output (or --force)",
        )

    def verified(
        self, task: TaskSpec, unit_hash: str, progress: UnitProgress | None = None
    ) -> dict[str, Any] | None:
        """The unit's earlier result when it verifies and has this configuration's hash
        (``None`` if absent, broken or of another configuration; a broken one is logged)."""
        result_path, samples_path = self.paths(task)
        check = verify_result(result_path, samples_path, unit_hash)
        if check.problem and progress is not None:
            progress.log(f"recomputing: {check.problem}")
        previous = check.result
        if previous is None or previous.get("run", {}).get("config_hash") != unit_hash:
            return None
        return previous

    def cached(self, task: TaskSpec, progress: UnitProgress | None = None) -> UnitOutcome | None:
        """The unit's outcome with status ``cached`` when its result is complete and trusted
        for this run configuration (so it is skipped), else ``None``."""
        if self.config.force:
            return None
        try:
            unit_hash = config_hash(self.unit_config(task))
        except SeebenchError:  # the unit itself reports it
            return None
        return self._cached_outcome(task, self.verified(task, unit_hash, progress))

    def _cached_outcome(
        self, task: TaskSpec, previous: dict[str, Any] | None
    ) -> UnitOutcome | None:
        if (
            previous is None
            or previous.get("status") not in COMPLETE_STATUSES
            or not (previous.get("scored", True) or self.config.predict_only)
        ):
            return None
        return self.outcome(
            task,
            "cached",
            metrics=previous.get("metrics", {}),
            primary_metric=task.primary_metric,
            n=previous.get("n"),
            invalid=previous.get("invalid"),
            excluded=int((previous.get("unscored") or {}).get("count", 0)),
            repeats=int(previous.get("run", {}).get("config", {}).get("repeats") or 1),
            reason=None if previous["status"] == "ok" else previous.get("reason"),
            note=_summary(previous.get("info")),
        )

    def preview(self, task: TaskSpec) -> tuple[str, str]:
        """What :meth:`run_unit` would do with ``task``'s unit, and why, without doing it:
        ``run``, ``reuse`` (a complete result), ``score`` (saved predictions),
        ``not_applicable``, ``skip`` (its data is not here) or ``fail`` (a bad option)."""
        from seebench.data.manage import task_status

        reason = self.not_applicable(task)
        if reason:
            return "not_applicable", reason
        try:
            unit_hash = config_hash(self.unit_config(task))
        except SeebenchError as exc:
            return "fail", str(exc)
        status = task_status(task, self.registry, prepare=False)
        missing = [f["file"] for f in status["files"] if not f["present"]]
        if missing:
            return "skip", f"data not here: {', '.join(missing)} (seebench data fetch {task.name})"
        kept = self._keep_full_result(task)
        if kept is not None:
            return "skip", str(kept.reason)
        if self.config.force:
            return "run", "--force recomputes it"
        result_path, samples_path = self.paths(task)
        check = verify_result(result_path, samples_path, unit_hash)
        if check.absent:
            return "run", "no result yet"
        if check.problem:
            return "run", check.problem.removeprefix(f"{result_path}: ")
        if check.result is not None and self._cached_outcome(task, check.result) is not None:
            return "reuse", f"complete result for this configuration ({check.result['status']})"
        previous = check.result or {}
        if previous.get("status") == "ok" and previous.get("scored") is False:
            return "score", "scores the predictions a --predict-only run saved"
        return "run", f"the result is {previous.get('status')}: {previous.get('reason')}"

    # -- run one unit -------------------------------------------------------------------------

    def run_unit(
        self, task: TaskSpec, progress: UnitProgress, time_limit: float | None = None
    ) -> UnitOutcome:
        """Run ``task``'s unit under its lock and write its result; a unit another live run
        holds is skipped. ``time_limit`` bounds the compute phase's wall time (seconds)."""
        result_path = self.paths(task)[0]
        try:
            with unit_lock(lock_path(result_path)):
                for written in self.paths(task):
                    remove_stale_temps(written)  # left by a run killed mid-write
                return self._run_unit_held(task, progress, time_limit)
        except UnitBusy as busy:
            return self.outcome(
                task,
                "skipped",
                reason=f"another run ({busy.holder}) is computing it now; rerun later to pick "
                "up its result",
            )
        except OSError as exc:  # e.g. a directory where the result file should go
            where = exc.filename2 or exc.filename
            detail = f"{exc.strerror}: {where}" if exc.strerror and where else str(exc)
            return self.outcome(task, "failed", reason=f"cannot write the result: {detail}")

    def _run_unit_held(
        self, task: TaskSpec, progress: UnitProgress, time_limit: float | None
    ) -> UnitOutcome:
        """The unit, its lock held: cached, scored from saved predictions, or computed."""
        started = time.perf_counter()
        try:
            unit_config = self.unit_config(task)
        except SeebenchError as exc:  # a bad scorer option or repeats value: this unit only
            unit_config = run_config(self.config, self.model, self.method_name, task)
            base = self.result_base(task, unit_config, config_hash(unit_config))
            return self.record_failure(task, base, "failed", str(exc), started)
        unit_hash = config_hash(unit_config)
        kept = self._keep_full_result(task)
        if kept is not None:
            return kept
        if not self.config.force:
            previous = self.verified(task, unit_hash, progress)
            done = self._cached_outcome(task, previous)
            if done is not None:
                return done
            saved = previous is not None and previous.get("status") == "ok"
            if saved and previous is not None and previous.get("scored") is False:
                return self._score_saved(task, started)
        base = self.result_base(task, unit_config, unit_hash)
        repeats = int(unit_config["repeats"])
        try:
            work = within_time_limit(
                lambda: self.compute(task, progress, repeats),
                time_limit,
                f"running {task.name!r}",
            )
        except NotApplicableError as exc:
            return self.record_failure(task, base, "not_applicable", str(exc), started)
        except DataMissingError as exc:
            return self.record_failure(task, base, "skipped", str(exc), started)
        except KeyboardInterrupt:
            raise
        except Exception as exc:
            detail = None if isinstance(exc, UnitTimeLimit) else traceback.format_exc(limit=8)
            outcome = self.record_failure(
                task, base, "failed", _failure_reason(exc), started, detail
            )
            outcome.exception = exc
            return outcome
        return self.record(task, base, work, progress, started)

    # -- compute ------------------------------------------------------------------------------

    def compute(self, task: TaskSpec, progress: UnitProgress, repeats: int) -> UnitWork:
        """Load the data, run the method ``repeats`` times and score: everything of a unit but
        writing it. Raises :class:`NotApplicableError`, :class:`DataMissingError` or the
        method's or scorer's own error."""
        reason = self.not_applicable(task)
        if reason:
            raise NotApplicableError(reason)
        timings: dict[str, float] = {}
        cpu0 = cpu_seconds()
        t0 = time.perf_counter()
        data = load_task_data(
            task,
            self.registry,
            seed=self.config.seed,
            limit=self.config.limit,
            sample_ids=self.config.samples,
        )
        timings["data_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        outputs = self._run_method(task, data, progress, repeats)
        timings["method_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        scoring = None
        if not self.config.predict_only:
            scoring = score_unit(
                task,
                data.test,
                [[p.prediction for p in o.predictions] for o in outputs],
                self.registry,
                artifacts=artifacts_dir(self.paths(task)[0]),
                seed=self.config.seed,
                bootstrap=self.config.bootstrap,
                options=self.config.method_options,
            )
        records = sample_records(data.test, [o.predictions for o in outputs], scoring)
        timings["metrics_s"] = time.perf_counter() - t0
        timings["cpu_s"] = cpu_seconds() - cpu0
        return UnitWork(data, outputs, scoring, records, timings)

    def not_applicable(self, task: TaskSpec) -> str | None:
        """Why this method cannot run ``task`` with this model (``None``: it can)."""
        if not self.method_entry.applies_to(task.type, task.behaviour):
            return f"method {self.method_name!r} does not support {task.type} tasks"
        return self.method.not_applicable(task, self.model)

    def _method_options(self, task: TaskSpec) -> dict[str, Any]:
        merged = {**task.method_options(self.method_name), **self.config.method_options}
        return {k: v for k, v in merged.items() if k not in RUN_OPTIONS}

    def _run_method(
        self, task: TaskSpec, data: TaskData, progress: UnitProgress, repeats: int
    ) -> list[MethodOutput]:
        options = self._method_options(task)
        outputs: list[MethodOutput] = []
        for repeat in range(repeats):
            if repeats > 1 and "seed" in options:
                options = {**options, "seed": int(options["seed"]) + 1}
            context = RunContext(
                task=task,
                data=data,
                model=self.model,
                seed=self.config.seed + repeat,
                options=options,
                work_dir=self.paths(task)[0].parent / f".{task.name}.work",
                advance=progress.add_samples,
                repeat=repeat,
                registry=self.registry,
            )
            output = self.method.run(context)
            self._check_predictions(output, data)
            outputs.append(output)
        return outputs

    def _check_predictions(self, output: MethodOutput, data: TaskData) -> None:
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

    # -- record -------------------------------------------------------------------------------

    def record(
        self,
        task: TaskSpec,
        base: dict[str, Any],
        work: UnitWork,
        progress: UnitProgress,
        started: float,
    ) -> UnitOutcome:
        """Write the samples, then the result of a computed unit; its outcome."""
        result_path, samples_path = self.paths(task)
        samples_sha256 = write_samples(samples_path, work.records)
        base["environment"] = environment()
        data, outputs, scoring = work.data, work.outputs, work.scoring
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
            reason = scoring.unscored_summary()
            return self.record_failure(task, base, "skipped", reason, started)
        caveats = unit_caveats(task, data.test, self.config.limit)
        for line in caveats:
            progress.log(f"warning: {line}")
        timings = {**work.timings, "total_s": time.perf_counter() - started}
        result = {**base, "timings": timings, **scoring_fields(scoring)}
        if caveats:
            result["warnings"] = caveats
        write_result(result_path, result)
        return self.outcome(
            task,
            "ok",
            primary_metric=task.primary_metric,
            metrics=result["metrics"],
            n=n,
            invalid=invalid,
            excluded=scoring.unscored if scoring is not None else None,
            repeats=len(outputs),
            note=_summary(outputs[0].info),
            seconds=timings["total_s"],
        )

    def record_failure(
        self,
        task: TaskSpec,
        base: dict[str, Any],
        status: str,
        reason: str,
        started: float,
        detail: str | None = None,
    ) -> UnitOutcome:
        """Write the result of a unit that ended without metrics (``status`` and ``reason``)."""
        seconds = time.perf_counter() - started
        base["environment"] = environment()
        result = {
            "samples_file": None,
            **base,
            "status": status,
            "reason": reason,
            "timings": {"total_s": seconds},
        }
        if detail:
            result["info"] = {"traceback": detail}
        write_result(self.paths(task)[0], result)
        return self.outcome(
            task, status, reason=reason, seconds=seconds, primary_metric=task.primary_metric
        )

    def _score_saved(self, task: TaskSpec, started: float) -> UnitOutcome:
        """Score predictions a ``--predict-only`` run saved, without calling the model."""
        from seebench.runner.rescore import rescore

        outcome = self.outcome(task, "ok", primary_metric=task.primary_metric)
        try:
            done = rescore(
                self.paths(task)[0],
                self.registry,
                self.index,
                bootstrap=self.config.bootstrap,
                run_options=self.config.method_options,
                lock=False,  # held by run_unit
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

    def result_base(
        self, task: TaskSpec, unit_config: dict[str, Any], unit_hash: str
    ) -> dict[str, Any]:
        """The result fields every unit's result has, whatever its status."""
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
                **({"samples": sorted(self.config.samples)} if self.config.samples else {}),
                "shard": list(self.config.shard) if self.config.shard else None,
                "config": unit_config,
                "config_hash": unit_hash,
            },
            "metrics": {},
            "primary_metric": task.primary_metric,
            "timings": {},
            "environment": None,  # filled in when the result is written (not on the way in)
            "artifacts": artifacts_dir(Path(task.name)).name,
            **({"attempts": list(self.attempts)} if self.attempts else {}),
        }


def cpu_seconds() -> float:
    """User and system CPU seconds of this process and its waited-for children (a unit's
    ``timings.cpu_s`` is the difference around its data, method and metrics)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
