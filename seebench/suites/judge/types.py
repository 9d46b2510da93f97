"""Task types of the judging tasks: a judge scores responses (or compares two) like humans did.

The gold of an item is the human judgment plus the task input it belongs to
(``{"human": score, "input_group": g}``, and ``"pair": [j, k]`` for a comparison), so the
agreement metrics can work per input and find the other order of a pair. A prediction is the
judge's score (or verdict in [-1, 1]); ``None`` is an unscored judgment.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from seebench.data.dataset import DataError
from seebench.tasks.types import TaskType

JUDGED_SCORE = "judged_score"
JUDGED_PREFERENCE = "judged_preference"


def _number(task: Any, value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise DataError(f"task {task.name!r}: {what} {value!r} is not a finite number")
    return float(value)


class JudgedScoreType(TaskType):
    """One response per item; the gold is its human score."""

    target_kind = JUDGED_SCORE
    default_metrics: tuple[str, ...] = (
        "judge_spearman",
        "judge_pearson",
        "judge_kendall",
        "judge_unscored_rate",
    )

    def normalise_target(self, task: Any, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict) or "human" not in value or "input_group" not in value:
            raise DataError(
                f"task {task.name!r}: a judging target needs 'human' and 'input_group', got {value!r}"
            )
        target = {"human": _number(task, value["human"], "human score")}
        group = value["input_group"]
        if isinstance(group, bool) or not isinstance(group, int):
            raise DataError(f"task {task.name!r}: input_group {group!r} is not an integer")
        target["input_group"] = group
        return target

    def summarise_targets(self, task: Any, targets: Sequence[Any]) -> dict[str, Any]:
        values = [t["human"] for t in targets]
        return {
            "items": len(values),
            "inputs": len({t["input_group"] for t in targets}),
            "human_min": min(values) if values else None,
            "human_max": max(values) if values else None,
            "human_mean": round(sum(values) / len(values), 4) if values else None,
        }

    def sample_score(self, task: Any, gold: Any, prediction: Any) -> float:
        """1.0 when the judge gave a usable score (agreement itself is a set-level metric)."""
        return 0.0 if prediction is None else 1.0


class JudgedPreferenceType(JudgedScoreType):
    """An ordered pair of responses per item; the gold is the difference of their human scores."""

    target_kind = JUDGED_PREFERENCE
    default_metrics = (
        "preference_accuracy",
        "preference_accuracy_without_ties",
        "position_consistency",
        "position_bias_rate",
        "judge_unscored_rate",
    )

    def normalise_target(self, task: Any, value: Any) -> dict[str, Any]:
        target = super().normalise_target(task, value)
        pair = value.get("pair")
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, int) for p in pair)
        ):
            raise DataError(f"task {task.name!r}: pair {pair!r} is not two response numbers")
        target["pair"] = list(pair)
        return target

    def sample_score(self, task: Any, gold: Any, prediction: Any) -> float:
        """1.0 when the judge's verdict matches the human preference (study thresholds)."""
        from seebench.suites.judge.comparison import (
            HUMAN_TIE_THRESHOLD,
            JUDGE_TIE_THRESHOLD,
            verdict,
        )

        if prediction is None:
            return 0.0
        return float(
            verdict(float(prediction), JUDGE_TIE_THRESHOLD)
            == verdict(gold["human"], HUMAN_TIE_THRESHOLD)
        )
