"""Scoring one unit: records from predictions, scorers, metrics with intervals, pass@k.

Shared by ``seebench eval`` (right after predicting) and ``seebench score`` (re-scoring saved
predictions without calling the model).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.registry import Registry
from seebench.scoring.core import ScoreContext
from seebench.scoring.run import close_scorers, configure_scorers, score_predictions


@dataclass
class UnitScoring:
    """What scoring adds to a unit's result and samples."""

    metrics: dict[str, float]
    metric_info: dict[str, dict[str, Any]]
    scores: dict[str, list[list[Any]]]  # scorer -> [repeat][item] Score
    scorer_identities: dict[str, dict[str, Any]]
    computed: dict[str, int]  # scorer -> scores computed now (not from the cache)
    repeat_metrics: dict[str, float] = field(default_factory=dict)
    item_spread: list[dict[str, Any]] = field(default_factory=list)
    unscored: int = 0  # samples (x repeats) the primary scorer could not score
    unscored_reasons: dict[str, int] = field(default_factory=dict)
    total: int = 0  # samples x repeats

    @property
    def all_unscored(self) -> bool:
        """No sample could be scored (e.g. no sandbox could start): the unit is skipped."""
        return self.total > 0 and self.unscored == self.total

    def unscored_summary(self) -> str:
        """One line: why samples were left unscored (the commonest reasons first)."""
        reasons = sorted(self.unscored_reasons.items(), key=lambda kv: -kv[1])
        return "; ".join(reason for reason, _ in reasons[:2]) or "samples could not be scored"


def score_unit(
    task: Any,
    samples: list[Any],
    predictions: list[list[Any]],
    registry: Registry,
    *,
    artifacts: Path,
    seed: int,
    bootstrap: int,
    options: dict[str, Any] | None = None,
    scorer_overrides: dict[str, dict[str, Any]] | None = None,
    client: Any = None,
) -> UnitScoring:
    """Score ``predictions[repeat][item]`` of ``samples`` with the task's scorers and metrics."""
    # numpy comes with the metrics: a run imports it when its first unit is scored
    from seebench.scoring.aggregate import UnitScores, compute_metrics, repeat_summary

    runs = configure_scorers(task, registry, scorer_overrides, run_options=options)
    context = ScoreContext(
        task=task, artifacts=artifacts, client=client, options=dict(options or {})
    )
    try:
        scores = score_predictions(runs, samples, predictions, context)
    finally:
        close_scorers(runs)
    data = UnitScores(
        golds=[s.target for s in samples],
        predictions=predictions,
        scores=scores,
        labels=task.label_names or None,
    )
    metrics, info = compute_metrics(task, data, registry, bootstrap=bootstrap, seed=seed)
    result = UnitScoring(
        metrics,
        info,
        scores,
        {r.name: r.identity for r in runs},
        {r.name: r.computed for r in runs},
    )
    primary_scores = [score for repeat in scores[runs[0].name] for score in repeat]
    unscored = Counter(
        (score.explanation or "not scored").splitlines()[0]
        for score in primary_scores
        if score.value is None
    )
    result.total, result.unscored = len(primary_scores), sum(unscored.values())
    result.unscored_reasons = dict(unscored.most_common())
    if len(predictions) > 1:
        primary = runs[0].name
        ks = task.pass_k or (1,)
        result.repeat_metrics, result.item_spread = repeat_summary(scores[primary], ks)
        for sample, row in zip(samples, result.item_spread, strict=True):
            row["id"] = sample.id
    return result


def score_fields(scoring: UnitScoring, repeat: int, index: int) -> dict[str, Any]:
    """A samples-file record's ``score`` (the first scorer's value) and, when there is more
    than one value to keep, ``scores`` (every scorer's full :class:`Score`)."""
    named = {name: per[repeat][index] for name, per in scoring.scores.items()}
    first = next(iter(named.values()))
    fields: dict[str, Any] = {"score": first.value}
    if len(named) > 1 or first.explanation or first.metadata or first.answer is not None:
        fields["scores"] = {name: score.to_json() for name, score in named.items()}
    return fields


def sample_records(
    samples: list[Any], outputs: list[list[Any]], scoring: UnitScoring | None
) -> list[dict[str, Any]]:
    """One samples-file line per (test item, repeat): prediction, gold and scores."""
    records = []
    repeats = len(outputs)
    for repeat, predictions in enumerate(outputs):
        for index, (sample, pred) in enumerate(zip(samples, predictions, strict=True)):
            record: dict[str, Any] = {"id": sample.id}
            if repeats > 1:
                record["repeat"] = repeat
            record.update(
                {
                    "input_hash": sample.input_hash,
                    "prediction": pred.prediction,
                    "gold": sample.target,
                }
            )
            if scoring is not None:
                record.update(score_fields(scoring, repeat, index))
            for key in ("raw", "error", "confidence"):
                value = getattr(pred, key)
                if value is not None:
                    record[key] = value
            if pred.shots:
                record["shots"] = list(pred.shots)
            if pred.extra:
                record["extra"] = pred.extra
            records.append(record)
    return records
