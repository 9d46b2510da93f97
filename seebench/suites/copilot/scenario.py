"""What every Copilot scenario type shares: the ``null`` and ``oracle`` reference answers.

A scenario's task type derives from :class:`ScenarioType` and says what the two reference
answers are for one sample. The ``null`` and ``oracle`` models (rules, not language models)
answer every item of every scenario with them, so each metric has a floor and a ceiling.
"""

from __future__ import annotations

from typing import Any

from seebench.data.dataset import Sample
from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import TaskType

#: the reference rules, and what each one answers
REFERENCE_RULES = {
    "null": "the input unchanged (doc, fix, generate) or an empty test (test)",
    "oracle": "the known-good answer: the original documented file, the canonical solution",
}


class ScenarioType(TaskType):
    """Base of the Copilot scenario types: override the two reference answers."""

    def null_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The answer that changes nothing (the floor); ``None`` when there is none."""
        return None

    def oracle_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """A known-good answer (the ceiling); ``None`` when the item has none."""
        return None

    def no_oracle(self, task: TaskSpec) -> str | None:
        """Why no item of ``task`` can have an oracle answer (then ``--model oracle`` is not
        applicable instead of scoring every item as wrong); ``None`` when some can."""
        return None


def resolve_rule(spec: str) -> ModelRef:
    """Model resolver for ``null`` and ``oracle``."""
    return ModelRef(spec=spec, id=spec, kind="rule", identity={"rule": REFERENCE_RULES[spec]})


class ReferenceAnswers:
    """The ``null`` / ``oracle`` method: each test item's reference answer from the task type."""

    def __init__(self, rule: str) -> None:
        self.name = rule
        self.rule = rule

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        if model.spec != self.rule:  # the model this plugin registers by that name
            return f"the {self.rule} method answers for the {self.rule!r} model, not {model.spec!r}"
        if not isinstance(task.behaviour, ScenarioType):
            return f"task {task.name!r} is not a Copilot scenario (no {self.rule} answer)"
        if self.rule == "oracle":
            return task.behaviour.no_oracle(task)
        return None

    def run(self, context: RunContext) -> MethodOutput:
        task, behaviour = context.task, context.task.behaviour
        assert isinstance(behaviour, ScenarioType)
        answer = behaviour.null_answer if self.rule == "null" else behaviour.oracle_answer
        predictions = []
        for sample in context.data.test:
            value = answer(task, sample)
            if value is None:
                predictions.append(Prediction(sample.id, None, error=f"no {self.rule} answer"))
            else:
                predictions.append(Prediction(sample.id, value))
            context.advance(1)
        missing = sum(p.prediction is None for p in predictions)
        summary = f"{len(predictions) - missing} {self.rule} answers"
        return MethodOutput(predictions, {"summary": summary})


def null_method() -> ReferenceAnswers:
    return ReferenceAnswers("null")


def oracle_method() -> ReferenceAnswers:
    return ReferenceAnswers("oracle")
