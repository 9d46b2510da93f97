"""Built-in task types: binary, multiclass, multilabel, regression, ner, mlm."""

from __future__ import annotations

from seebench.plugin_manager import hookimpl

CLASSIFICATION_METRICS = ("f1_macro", "f1_micro", "accuracy")


@hookimpl
def register_task_types(register) -> None:
    register(
        "binary",
        description="One of two labels per input.",
        schema={"required": ["labels"]},
        metrics=CLASSIFICATION_METRICS,
    )
    register(
        "multiclass",
        description="One of several labels per input.",
        schema={"required": ["labels"]},
        metrics=CLASSIFICATION_METRICS,
    )
    register(
        "multilabel",
        description="Any subset of the labels per input.",
        schema={"required": ["labels"]},
        metrics=CLASSIFICATION_METRICS,
    )
    register(
        "regression",
        description="A number in a known range per input.",
        schema={
            "properties": {
                "value_range": {
                    "type": "array",
                    "items": {"type": "number"},
                    "minItems": 2,
                    "maxItems": 2,
                    "description": "Inclusive [min, max] of the target; predictions are clipped to it.",
                }
            },
            "required": ["value_range"],
        },
        metrics=("one_minus_smape", "smape", "mae"),
    )
    register(
        "ner",
        description="Named-entity recognition: a BIO tag per token; labels are the entity types.",
        schema={"required": ["labels"]},
        metrics=("entity_f1_micro",),
    )
    register(
        "mlm",
        description="Masked language modelling: predict the masked words of each input.",
        schema={
            "properties": {
                "mask_token": {"type": "string", "description": "Placeholder marking a masked word in the input."}
            }
        },
        metrics=("masked_accuracy",),
    )
