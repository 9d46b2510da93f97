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


def configure_scorers(task: Any, registry: Registry, overrides: dict[str, dict[str, Any]] | None = None
                      ) -> list[ScorerRun]:
    """The task's scorers (its type's own scorer when it lists none), options checked."""
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
            raise SeebenchError(f"scorer {name!r} cannot start: {type(exc).__name__}: {exc}") from None
        identity = {"scorer": name, "options": options, "plugin": entry.plugin, **scorer.identity()}
        runs.append(ScorerRun(name, scorer, identity))
    return runs


def _cache_file(artifacts: Path, run: ScorerRun) -> Path:
    return artifacts / "scores" / f"{run.name}-{run.identity_hash}.jsonl"


def _read_cache(path: Path) -> dict[str, Score]:
    cached: dict[str, Score] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return cached
    for line in lines:
        try:
            entry = json.loads(line)
            cached[str(entry["key"])] = Score.from_json(entry["score"])
        except (ValueError, KeyError, TypeError):
            continue  # a torn or tampered line: recompute that score
    return cached


def score_predictions(runs: Sequence[ScorerRun], samples: Sequence[Any],
                      predictions: Sequence[Sequence[Any]], context: ScoreContext
                      ) -> dict[str, list[list[Score]]]:
    """``{scorer: scores[repeat][item]}`` for every scorer, reusing cached scores."""
    out: dict[str, list[list[Score]]] = {}
    for run in runs:
        cacheable = run.name != TYPE_SCORER
        path = _cache_file(context.artifacts, run)
        cached = _read_cache(path) if cacheable else {}
        new_lines = []
        per_repeat = []
        for repeat_predictions in predictions:
            scores = []
            for sample, prediction in zip(samples, repeat_predictions, strict=True):
                key = stable_hash([sample.id, sample.input_hash, prediction], 32)
                score = cached.get(key)
                if score is None:
                    score = _score_one(run, sample, prediction, context)
                    run.computed += 1
                    if cacheable:
                        cached[key] = score
                        new_lines.append(json.dumps({"key": key, "score": score.to_json()},
                                                    ensure_ascii=False, default=str))
                scores.append(score)
            per_repeat.append(scores)
        if new_lines:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as handle:
                handle.write("\n".join(new_lines) + "\n")
        out[run.name] = per_repeat
    return out


def _score_one(run: ScorerRun, sample: Any, prediction: Any, context: ScoreContext) -> Score:
    try:
        score = run.scorer.score(sample, prediction, context)
    except SeebenchError as exc:
        return Score(None, explanation=f"not scored: {exc}")
    if not isinstance(score, Score):
        raise SeebenchError(f"scorer {run.name!r} returned {type(score).__name__}, not a Score")
    return score
