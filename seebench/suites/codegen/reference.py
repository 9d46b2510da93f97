"""The ``reference`` model and method: each item's known-good solution, to check a code task
end to end (data, sandbox, scorer, metrics) without a language model."""

from __future__ import annotations

from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef
from seebench.tasks.spec import TaskSpec


def resolve_reference(spec: str) -> ModelRef:
    """Model resolver for ``reference``: a rule, not a language model."""
    return ModelRef(spec=spec, id=spec, kind="rule", identity={"rule": "reference solution"})


class ReferenceMethod:
    """Answers every test item with its target's ``reference``; an item without one gets an
    invalid answer (scored as wrong) that says so."""

    name = "reference"

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        if model.spec != "reference":  # the model this plugin registers by that name
            return f"the reference method answers for the 'reference' model, not {model.spec!r}"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        predictions = []
        for sample in context.data.test:
            reference = sample.target.get("reference")
            if reference is None:
                predictions.append(
                    Prediction(sample.id, None, error="the item has no reference solution")
                )
            else:
                predictions.append(Prediction(sample.id, reference))
            context.advance(1)
        missing = sum(p.prediction is None for p in predictions)
        return MethodOutput(
            predictions, {"summary": f"{len(predictions) - missing} reference solutions"}
        )
