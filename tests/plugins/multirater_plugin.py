"""A third-party-style plugin adding a task type with multi-rater targets, a scorer that runs a
callable, a score-based metric and a rater model, without touching seebench's core.

``__version__`` stands in for the distribution version (loaded via ``SEEBENCH_PLUGINS``).
"""

from __future__ import annotations

import importlib
from collections import Counter

from seebench import hookimpl
from seebench.data.dataset import DataError
from seebench.methods import MethodOutput, Prediction
from seebench.models import ModelRef
from seebench.scoring import Score
from seebench.tasks.types import TaskType

__version__ = "1.0"
CALLS = Counter()  # how often the rater model and the scorer ran (tests check re-scoring)


class MultiRaterType(TaskType):
    """Each item carries several raters' labels; the gold is ``{rater: label}``."""

    target_kind = "ratings"
    default_metrics = ("mean_score",)

    def normalise_target(self, task, value):
        if not isinstance(value, dict) or not value:
            raise DataError(
                f"task {task.name!r}: ratings must be a non-empty mapping, got {value!r}"
            )
        return {str(rater): str(label) for rater, label in value.items() if label is not None}

    def sample_score(self, task, gold, prediction):
        return sum(label == prediction for label in gold.values()) / len(gold)

    def summarise_targets(self, task, targets):
        return {
            "raters": len({r for t in targets for r in t}),
            "ratings": sum(len(t) for t in targets),
        }


def majority_agrees(ratings: dict, prediction: str) -> float:
    """1 when the prediction is the human majority label (ties: any tied label), else 0."""
    counts = Counter(ratings.values())
    best = max(counts.values())
    return float(counts.get(prediction, 0) == best)


class CallableScorer:
    """Scores with a function ``func(gold, prediction) -> float`` named by import path."""

    def __init__(self, function: str, weight: float = 1.0):
        module, _, name = function.partition(":")
        self.function = function
        self.func = getattr(importlib.import_module(module), name)
        self.weight = weight

    def identity(self):
        return {"function": self.function, "weight": self.weight}

    def score(self, sample, prediction, context):
        CALLS["scorer"] += 1
        value = self.weight * self.func(sample.target, prediction)
        return Score(value, answer=prediction, explanation=f"{len(sample.target)} raters")


def mean_score(scores, **options) -> float:
    values = [s.value for s in scores if s.value is not None]
    return sum(values) / len(values) if values else float("nan")


class RaterMethod:
    """The model as one more rater: answers a fixed label per item from ``meta['model_label']``."""

    name = "rate"

    def not_applicable(self, task, model):
        return None

    def run(self, context):
        CALLS["model"] += len(context.data.test)
        return MethodOutput([Prediction(s.id, s.meta["model_label"]) for s in context.data.test])


@hookimpl
def register_task_types(register):
    register(
        "multi_rater",
        MultiRaterType(),
        description="Several raters' labels per item.",
        schema={"required": ["labels"]},
    )


@hookimpl
def register_scorers(register):
    register(
        "callable",
        CallableScorer,
        description="Score with a function given by import path.",
        options={"function": {"type": "string"}, "weight": {"type": "number"}},
    )


@hookimpl
def register_metrics(register):
    register(
        "mean_score",
        mean_score,
        description="Mean of the per-sample scores.",
        inputs="scores",
        target_kinds=("ratings",),
    )


@hookimpl
def register_methods(register):
    register("rate", RaterMethod, description="A fixed rater (tests).", options={})


@hookimpl
def register_models(register):
    register(
        "fixed-rater",
        lambda spec: ModelRef(spec=spec, id="fixed-rater", kind="rule"),
        description="Answers meta.model_label.",
        default_method="rate",
    )
