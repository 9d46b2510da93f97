"""Built-in metrics."""

from __future__ import annotations

from seebench.hookspecs import RegisterMetric, hookimpl
from seebench.tasks.types import LABEL, LABEL_SET, MASKED_WORDS, NUMBER, TAG_SEQUENCE

_CLS = (LABEL, LABEL_SET)


@hookimpl
def register_metrics(register: RegisterMetric) -> None:
    register(
        "f1_macro",
        "seebench.scoring.metrics.classification:f1_macro",
        description="Macro-averaged F1 over classes (labels for multi-label).",
        target_kinds=_CLS,
    )
    register(
        "f1_micro",
        "seebench.scoring.metrics.classification:f1_micro",
        description="Micro-averaged F1.",
        target_kinds=_CLS,
    )
    register(
        "accuracy",
        "seebench.scoring.metrics.classification:accuracy",
        description="Exact-match accuracy (exact label set for multi-label).",
        target_kinds=_CLS,
    )
    register(
        "one_minus_smape",
        "seebench.scoring.metrics.regression:one_minus_smape",
        description="1 - SMAPE (SELU Eq. 2); 1 is perfect.",
        target_kinds=(NUMBER,),
    )
    register(
        "smape",
        "seebench.scoring.metrics.regression:smape",
        description="Symmetric mean absolute percentage error in [0, 1]; lower is better.",
        target_kinds=(NUMBER,),
        higher_is_better=False,
    )
    register(
        "mae",
        "seebench.scoring.metrics.regression:mae",
        description="Mean absolute error; lower is better.",
        target_kinds=(NUMBER,),
        higher_is_better=False,
    )
    register(
        "entity_f1_micro",
        "seebench.scoring.metrics.sequence:entity_f1_micro",
        description="Entity-level micro F1 over BIO tags (seqeval).",
        target_kinds=(TAG_SEQUENCE,),
    )
    register(
        "masked_accuracy",
        "seebench.scoring.metrics.sequence:masked_accuracy",
        description="Accuracy over masked tokens.",
        target_kinds=(MASKED_WORDS,),
    )
