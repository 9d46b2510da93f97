"""Methods for the codegen tests: deliberately wrong and mixed answers."""

from __future__ import annotations

from seebench import hookimpl
from seebench.methods import MethodOutput, Prediction
from seebench.tasks.types import CODE

WRONG_BODY = "    return None\n"


class WrongMethod:
    """Answers every item with a body that returns None (fails every HumanEval test)."""

    name = "wrong"

    def not_applicable(self, task, model):
        return None

    def run(self, context):
        return MethodOutput([Prediction(s.id, WRONG_BODY) for s in context.data.test])


class MixedMethod:
    """The reference for even positions, a wrong body for odd ones, no answer for every fifth."""

    name = "mixed"

    def not_applicable(self, task, model):
        return None

    def run(self, context):
        predictions = []
        for position, sample in enumerate(context.data.test):
            if position % 5 == 4:
                predictions.append(Prediction(sample.id, None, error="no code block"))
            elif position % 2 == 0:
                predictions.append(Prediction(sample.id, sample.target["reference"]))
            else:
                predictions.append(Prediction(sample.id, WRONG_BODY))
        return MethodOutput(predictions)


class FlakyMethod:
    """Right in one repeat out of three (which one depends on the item), wrong otherwise."""

    name = "flaky"

    def not_applicable(self, task, model):
        return None

    def run(self, context):
        return MethodOutput(
            [
                Prediction(
                    s.id, s.target["reference"] if (i + context.repeat) % 3 == 0 else WRONG_BODY
                )
                for i, s in enumerate(context.data.test)
            ]
        )


@hookimpl
def register_methods(register):
    register(
        "wrong",
        WrongMethod,
        description="A wrong body for every item (tests).",
        target_kinds=(CODE,),
    )
    register(
        "mixed",
        MixedMethod,
        description="Right, wrong and missing answers (tests).",
        target_kinds=(CODE,),
    )
    register(
        "flaky",
        FlakyMethod,
        description="Right in one repeat of three (tests).",
        target_kinds=(CODE,),
    )
