"""Running a task's scorers over a unit's predictions, caching each scorer's scores on disk.

The cache lives in the unit's artifacts folder, one JSONL file per scorer identity: a line is
``{"key": ..., "score": {...}}`` where the key hashes the sample id, its input hash and the
prediction. Re-scoring with the same scorer reads the cache; a changed option or judge is a
new identity and scores afresh. Lines that do not parse are ignored (and recomputed).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.registry import Registry
from seebench.scoring.core import TYPE_SCORER, Score, ScoreContext, TypeScorer


def stable_hash(value: Any, length: int = 16) -> str:
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()
    return hashlib.sha256(blob).hexdigest()[:length]


class ScorerRun:
    """One configured scorer of a task: name, instance and identity."""

    def __init__(self, name: str, scorer: Any, identity: dict[str, Any]):
        self.name = name
        self.scorer = scorer
        self.identity = identity
        self.identity_hash = stable_hash(identity)
        self.computed = 0  # scores computed (not read from the cache) in this run


def configure_scorers(
    task: Any,
    registry: Registry,
    overrides: dict[str, dict[str, Any]] | None = None,
    run_options: dict[str, Any] | None = None,
) -> list[ScorerRun]:
    """The task's scorers (its type's own scorer when it lists none), options checked.

    A scorer with a ``configure(run_options)`` method gets the run's options (for example
    ``unsafe_host_exec``) before its identity is taken, so they can change its identity.
    """
    overrides = overrides or {}
    if not task.scorers:
        return [ScorerRun(TYPE_SCORER, TypeScorer(), {"scorer": TYPE_SCORER, "type": task.type})]
    runs = []
    for name in task.scorers:
        entry = registry.scorer(name)
        options = {**task.scorer_options(name), **overrides.get(name, {})}
        problems = entry.option_problems(options)
        if problems:
            raise SeebenchError(problems[0])
        try:
            scorer = entry.load()(**options)
        except SeebenchError:
            raise
        except Exception as exc:
            raise SeebenchError(
                f"scorer {name!r} cannot start: {type(exc).__name__}: {exc}"
            ) from None
        if callable(getattr(scorer, "configure", None)):
            scorer.configure(dict(run_options or {}))
        identity = {"scorer": name, "options": options, "plugin": entry.plugin, **scorer.identity()}
        runs.append(ScorerRun(name, scorer, identity))
    return runs


#: The largest score cache read (a bigger one is recomputed).
SCORE_CACHE_MAX_BYTES = 512 * 1024 * 1024


def _cache_file(artifacts: Path, run: ScorerRun) -> Path:
    return artifacts / "scores" / f"{run.name}-{run.identity_hash}.jsonl"


def _read_cache(path: Path) -> dict[str, Score]:
    cached: dict[str, Score] = {}
    try:
        lines = safe_files.read_text(path, SCORE_CACHE_MAX_BYTES).splitlines()
    except (OSError, UnicodeDecodeError):  # a link, a FIFO, too large: recompute
        return cached
    for line in lines:
        try:
            entry = json.loads(line)
            cached[str(entry["key"])] = Score.from_json(entry["score"])
        except (ValueError, KeyError, TypeError, RecursionError):
            continue  # a torn or tampered line: recompute that score
    return cached


def score_predictions(
    runs: Sequence[ScorerRun],
    samples: Sequence[Any],
    predictions: Sequence[Sequence[Any]],
    context: ScoreContext,
) -> dict[str, list[list[Score]]]:
    """``{scorer: scores[repeat][item]}`` for every scorer, reusing cached scores.

    Scores not in the cache are computed together (a scorer with ``score_many`` gets them as
    one batch, e.g. to run them on a pool of sandbox workers; a repeated prediction is scored
    once). Unscored results (``value=None``) are not cached, so a later run retries them.
    """
    out: dict[str, list[list[Score]]] = {}
    for run in runs:
        cacheable = run.name != TYPE_SCORER
        path = _cache_file(context.artifacts, run)
        cached = _read_cache(path) if cacheable else {}
        keys = [
            [stable_hash([s.id, s.input_hash, p], 32) for s, p in zip(samples, repeat, strict=True)]
            for repeat in predictions
        ]
        todo: dict[str, tuple[Any, Any]] = {}
        for repeat, repeat_keys in zip(predictions, keys, strict=True):
            for sample, prediction, key in zip(samples, repeat, repeat_keys, strict=True):
                if key not in cached and key not in todo:
                    todo[key] = (sample, prediction)
        fresh = _score_batch(run, list(todo.values()), context)
        run.computed += len(fresh)
        new_lines = []
        for key, score in zip(todo, fresh, strict=True):
            cached[key] = score
            if cacheable and score.value is not None:
                new_lines.append(
                    json.dumps(
                        {"key": key, "score": score.to_json()}, ensure_ascii=False, default=str
                    )
                )
        if new_lines:
            path.parent.mkdir(parents=True, exist_ok=True)
            safe_files.append_text(path, "\n".join(new_lines) + "\n", root=context.artifacts)
        out[run.name] = [[cached[key] for key in repeat_keys] for repeat_keys in keys]
    return out


def _score_batch(
    run: ScorerRun, items: list[tuple[Any, Any]], context: ScoreContext
) -> list[Score]:
    score_many = getattr(run.scorer, "score_many", None)
    if not items or not callable(score_many):
        return [_score_one(run, sample, prediction, context) for sample, prediction in items]
    try:
        scores = list(score_many(items, context))
    except SeebenchError as exc:
        return [Score(None, explanation=f"not scored: {exc}") for _ in items]
    if len(scores) != len(items) or not all(isinstance(s, Score) for s in scores):
        raise SeebenchError(
            f"scorer {run.name!r}: score_many must return one Score per item "
            f"({len(items)}), got {len(scores)} value(s)"
        )
    return scores


def close_scorers(runs: Sequence[ScorerRun]) -> None:
    """Release what scorers hold (sandbox pools, judge clients): call ``close()`` where defined."""
    for run in runs:
        close = getattr(run.scorer, "close", None)
        if callable(close):
            close()


def _score_one(run: ScorerRun, sample: Any, prediction: Any, context: ScoreContext) -> Score:
    try:
        score = run.scorer.score(sample, prediction, context)
    except SeebenchError as exc:
        return Score(None, explanation=f"not scored: {exc}")
    if not isinstance(score, Score):
        raise SeebenchError(f"scorer {run.name!r} returned {type(score).__name__}, not a Score")
    return score
