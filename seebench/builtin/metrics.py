"""Built-in metrics."""

from __future__ import annotations

from seebench.plugin_manager import hookimpl

_CLS = ("binary", "multiclass", "multilabel")


@hookimpl
def register_metrics(register) -> None:
    register("f1_macro", "seebench.metrics.classification:f1_macro",
             description="Macro-averaged F1 over classes (labels for multi-label).", task_types=_CLS)
    register("f1_micro", "seebench.metrics.classification:f1_micro",
             description="Micro-averaged F1.", task_types=_CLS)
    register("accuracy", "seebench.metrics.classification:accuracy",
             description="Exact-match accuracy (exact label set for multi-label).", task_types=_CLS)
    register("one_minus_smape", "seebench.metrics.regression:one_minus_smape",
             description="1 - SMAPE (SELU Eq. 2); 1 is perfect.", task_types=("regression",))
    register("smape", "seebench.metrics.regression:smape",
             description="Symmetric mean absolute percentage error in [0, 1]; lower is better.",
             task_types=("regression",), higher_is_better=False)
    register("mae", "seebench.metrics.regression:mae",
             description="Mean absolute error; lower is better.", task_types=("regression",),
             higher_is_better=False)
    register("entity_f1_micro", "seebench.metrics.sequence:entity_f1_micro",
             description="Entity-level micro F1 over BIO tags (seqeval).", task_types=("ner",))
    register("masked_accuracy", "seebench.metrics.sequence:masked_accuracy",
             description="Accuracy over masked tokens.", task_types=("mlm",))
