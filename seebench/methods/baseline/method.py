"""The ``baseline`` method: fit a classical estimator on train, predict test.

Estimators come from model specs (``majority``, ``random``, and plugin-provided ones such as
TF-IDF+XGBoost): ``estimator.fit(data, seed)`` then ``estimator.predict(samples)``.
"""

from __future__ import annotations

from typing import Any, Protocol

from seebench.data.dataset import Sample, TaskData
from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef
from seebench.registry import load_object
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import LABEL, LABEL_SET, NUMBER

#: Target kinds the simple baselines handle (the type supplies the answer: see TaskType.majority).
SUPPORTED_BY_SIMPLE = (LABEL, LABEL_SET, NUMBER)


class Estimator(Protocol):
    """A classical model trained from a task's train (and validation) split."""

    #: the registry its metrics come from (set by the baseline method before ``fit``)
    registry: Any

    def not_applicable(self, task: TaskSpec) -> str | None: ...

    def fit(self, data: TaskData, seed: int, options: dict[str, Any]) -> dict[str, Any]: ...

    def predict(self, samples: list[Sample]) -> list[Any]: ...


class MajorityEstimator:
    """Predicts the most frequent training target (the median for regression; the labels
    present in at least half of the training samples for multi-label)."""

    def not_applicable(self, task: TaskSpec) -> str | None:
        if task.target_kind not in SUPPORTED_BY_SIMPLE:
            return f"the majority baseline does not apply to {task.type} tasks"
        return None

    def fit(self, data: TaskData, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        task = data.task
        self.answer: Any = task.behaviour.majority(task, [s.target for s in data.train])
        return {"answer": self.answer}

    def predict(self, samples: list[Sample]) -> list[Any]:
        return [self.answer for _ in samples]


class RandomEstimator:
    """Predicts a random training target (seeded): a stratified-chance reference."""

    def not_applicable(self, task: TaskSpec) -> str | None:
        if task.target_kind not in SUPPORTED_BY_SIMPLE:
            return f"the random baseline does not apply to {task.type} tasks"
        return None

    def fit(self, data: TaskData, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        self.task = data.task
        self.pool = [s.target for s in data.train]
        self.seed = seed
        return {"pool_size": len(self.pool)}

    def predict(self, samples: list[Sample]) -> list[Any]:
        behaviour = self.task.behaviour
        return [
            behaviour.random_answer(self.task, self.pool, f"{self.seed}:{s.id}") for s in samples
        ]


ESTIMATORS = {"majority": MajorityEstimator, "random": RandomEstimator}


def resolve_baseline(spec: str) -> ModelRef:
    """Model resolver for the built-in baseline names."""
    return ModelRef(spec=spec, id=spec, kind="baseline", identity={"estimator": spec})


class BaselineMethod:
    """Fits the model's estimator on the train split and predicts the test split."""

    name = "baseline"

    def __init__(self, estimators: dict[str, Any] | None = None):
        self.estimators = dict(ESTIMATORS if estimators is None else estimators)

    def _estimator(self, model: ModelRef) -> Estimator | None:
        factory = model.options.get("estimator") or self.estimators.get(
            model.identity.get("estimator", model.id)
        )
        return load_object(factory)() if factory else None

    def option_schema(self, model: ModelRef) -> dict[str, Any]:
        """The options of the model's estimator (its module's ``OPTIONS``; none for the simple ones)."""
        factory = model.options.get("estimator")
        if not isinstance(factory, str):
            return {}
        module = factory.partition(":")[0]
        return dict(load_object(f"{module}:OPTIONS"))

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        estimator = self._estimator(model)
        if estimator is None:
            return f"model {model.spec!r} is not a baseline estimator"
        return estimator.not_applicable(task)

    def run(self, context: RunContext) -> MethodOutput:
        estimator = self._estimator(context.model)
        assert estimator is not None
        estimator.registry = context.registry  # the metrics an estimator selects with
        info = estimator.fit(context.data, context.seed, context.options)
        values = estimator.predict(context.data.test)
        context.advance(len(values))
        predictions = [Prediction(s.id, v) for s, v in zip(context.data.test, values, strict=True)]
        return MethodOutput(predictions, {"fit": info, "summary": fit_summary(info)})


def fit_summary(info: dict[str, Any]) -> str | None:
    """``selected max_depth=6 min_child_weight=1 (validation f1_macro 0.8780)`` from a fit's info."""
    chosen = info.get("selected") if isinstance(info, dict) else None
    if not chosen:
        return None
    text = "selected " + " ".join(
        f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in chosen.items()
    )
    validation = info.get("validation") or {}
    if isinstance(validation.get("score"), float):
        text += f" (validation {validation.get('metric')} {validation['score']:.4f})"
    return text
