"""``seebench score``: score or re-score saved predictions without calling the model.

The task's data is loaded again (same seed and limit as the run) to give scorers the full
samples; every saved record must match a test item by id and input hash. The result and its
samples file are rewritten atomically with the new scores, metrics and run hash.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seebench.data.dataset import load_task_data
from seebench.errors import SeebenchError
from seebench.registry import Registry
from seebench.results.io import unit_root, write_result, write_samples
from seebench.results.samples import read_samples
from seebench.results.verify import pending_samples_path, settle_pending_samples, verify_result
from seebench.scoring.core import DEFAULT_BOOTSTRAP
from seebench.scoring.unit import score_fields, score_unit


@dataclass
class Rescored:
    """One re-scored result: its path, new metrics and how many scores were computed afresh."""

    path: Path
    metrics: dict[str, float]
    computed: dict[str, int]
    reason: str | None = None  # why the unit stays skipped (no sample could be scored)
    #: sha256 of each data file the task's data was loaded from now (``seebench reproduce``
    #: compares them with the result's ``data.checksums``)
    checksums: dict[str, str] | None = None


def result_files(paths: Iterable[Path]) -> list[Path]:
    """Result JSON files named directly or found below directories."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found += sorted(
                p
                for p in path.rglob("*.json")
                if p.parent.name != "scores"
                and not p.name.endswith(".samples.json")
                and ".artifacts" not in p.parts[-2]
            )
        elif path.is_file():
            found.append(path)
        else:
            raise SeebenchError(f"{path}: no such result file or directory")
    return found


def rescore(
    path: Path,
    registry: Registry,
    index: Any,
    *,
    scorer: str | None = None,
    options: dict[str, Any] | None = None,
    bootstrap: int | None = None,
    run_options: dict[str, Any] | None = None,
    lock: bool = True,
    data_cache: dict[tuple[Any, ...], Any] | None = None,
) -> Rescored | None:
    """Score the saved predictions of the result at ``path``; ``None`` if it has none.

    The unit's lock is held while scoring, unless ``lock`` is false: the caller (the runner,
    scoring what a ``--predict-only`` run saved) holds it already.

    ``data_cache`` (a dict the caller keeps) shares the task data loaded for one unit with
    the next units of the same task, seed and limit (``seebench reproduce`` re-scores many).

    ``scorer`` replaces the task's scorers by one registered scorer with ``options``;
    ``run_options`` (e.g. ``unsafe_host_exec``) go to the scorers as in ``seebench eval``. A
    unit skipped because none of its samples could be scored is scored again; it stays
    skipped if none can be scored now either.
    """
    from contextlib import nullcontext

    from seebench.runner.locks import UnitBusy, lock_path, unit_lock

    try:
        with unit_lock(lock_path(path)) if lock else nullcontext():
            return _rescore(
                path, registry, index, scorer, options, bootstrap, run_options, data_cache
            )
    except UnitBusy as busy:
        raise SeebenchError(f"another run is writing this unit ({busy.holder})") from None
    except OSError as error:  # scores/ is a file, a folder is read-only...
        raise SeebenchError(f"cannot score: {error.strerror or error}") from None


def _rescore(
    path: Path,
    registry: Registry,
    index: Any,
    scorer: str | None,
    options: dict[str, Any] | None,
    bootstrap: int | None,
    run_options: dict[str, Any] | None,
    data_cache: dict[tuple[Any, ...], Any] | None = None,
) -> Rescored | None:
    check = verify_result(path)  # what eval would trust, or the one-line reason why not
    if check.problem:
        raise SeebenchError(check.problem.split(": ", 1)[-1])
    result = check.result
    if result is None:
        raise SeebenchError("no such result file")
    if result.get("status") not in ("ok", "skipped") or not result.get("samples_file"):
        return None
    task = index.get(str(result["task"]["name"]))
    if scorer is not None:
        raw = {**task.raw, "scorers": [{"name": scorer, "options": dict(options or {})}]}
        task = type(task).from_document(raw, task.path, task.behaviour)
    run = result["run"]
    sample_ids = run.get("samples")
    key = (task.name, task.config_hash, int(run["seed"]), run.get("limit"), str(sample_ids))
    data = (data_cache or {}).get(key)
    if data is None:
        data = load_task_data(
            task, registry, seed=int(run["seed"]), limit=run.get("limit"), sample_ids=sample_ids
        )
        if data_cache is not None:
            data_cache[key] = data
    samples_path = path.with_name(str(result["samples_file"]))
    records = read_samples(samples_path)
    predictions, position = _saved_predictions(task, data.test, records, samples_path)
    seed = int(run["seed"])
    reps = DEFAULT_BOOTSTRAP if bootstrap is None else bootstrap
    scoring = score_unit(
        task,
        data.test,
        predictions,
        registry,
        artifacts=unit_root(path),  # no scorer write through a linked folder
        seed=seed,
        bootstrap=reps,
        options=run_options,
    )
    for record in records:
        repeat, index_ = int(record.get("repeat", 0)), position[record["id"]]
        record.pop("scores", None)
        record.update(score_fields(scoring, repeat, index_))
    _commit(path, result, records, scoring, task if scorer is not None else None, reps)
    checksums = dict(data.checksums)
    if scoring.all_unscored:
        return Rescored(path, {}, scoring.computed, scoring.unscored_summary(), checksums)
    return Rescored(path, scoring.metrics, scoring.computed, checksums=checksums)


def _saved_predictions(
    task: Any, test: list[Any], records: list[dict[str, Any]], samples_path: Path
) -> tuple[list[list[Any]], dict[str, int]]:
    """The saved predictions per repeat, in test order, and each sample's position; a record
    of a sample the task's test data no longer has (or has changed) is one line."""
    by_id = {s.id: s for s in test}
    repeats = max((int(r.get("repeat", 0)) for r in records), default=0) + 1
    predictions: list[list[Any]] = [[None] * len(test) for _ in range(repeats)]
    position = {s.id: i for i, s in enumerate(test)}
    for record in records:
        sample = by_id.get(record["id"])
        if sample is None or sample.input_hash != record["input_hash"]:
            raise SeebenchError(
                f"{samples_path}: sample {record['id']!r} is not in task {task.name!r}'s "
                "test data as it is now (the data or its preparation changed)"
            )
        predictions[int(record.get("repeat", 0))][position[sample.id]] = record["prediction"]
    if len(records) != repeats * len(test):
        raise SeebenchError(
            f"{samples_path}: {len(records)} records for {len(test)} test items "
            f"x {repeats} repeat(s)"
        )
    return predictions, position


def _commit(
    path: Path,
    result: dict[str, Any],
    records: list[dict[str, Any]],
    scoring: Any,
    overridden: Any,
    reps: int,
) -> None:
    """Write the re-scored samples and result (``overridden``: the task with the scorer the
    caller chose, recorded in the run configuration; ``None`` for the task's own)."""
    from seebench.runner.config import config_hash, scoring_fields

    samples_path = path.with_name(str(result["samples_file"]))
    run = result["run"]
    # two writes, in an order a kill cannot break: the new samples beside the old ones, then
    # the result naming them by sha256 (the commit), then the move into place (which any
    # later read of the unit finishes if it was stopped; see settle_pending_samples)
    pending = pending_samples_path(samples_path)
    result["samples_sha256"] = write_samples(pending, records)
    run["config"] = {**run["config"], "scorers": scoring.scorer_identities, "bootstrap": reps}
    if overridden is not None:
        run["config"]["task"] = {
            **run["config"]["task"],
            "scorers_override": json.loads(json.dumps(overridden.raw["scorers"])),
        }
    run["config_hash"] = config_hash(run["config"])
    result.pop("unscored", None)
    result.update(scoring_fields(scoring))
    if scoring.all_unscored:
        result.update(status="skipped", reason=scoring.unscored_summary(), scored=False, metrics={})
        for key in ("metric_info", "repeat_metrics", "item_spread"):
            result.pop(key, None)
    else:
        result.update(status="ok", reason=None)
    write_result(path, result)
    settle_pending_samples(samples_path, result)
