"""The ``baseline`` method with the ``majority`` and ``random`` models."""

from __future__ import annotations

from seebench.hookspecs import RegisterMethod, RegisterModel, hookimpl
from seebench.tasks.types import LABEL, LABEL_SET, NUMBER


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    register(
        "baseline",
        "seebench.methods.baseline.method:BaselineMethod",
        description="Fit a classical estimator (the model) on train, predict test.",
        target_kinds=(LABEL, LABEL_SET, NUMBER),
    )


@hookimpl
def register_models(register: RegisterModel) -> None:
    register(
        "majority",
        "seebench.methods.baseline.method:resolve_baseline",
        description="Always the most frequent training label (median for regression).",
        default_method="baseline",
    )
    register(
        "random",
        "seebench.methods.baseline.method:resolve_baseline",
        description="A random training label, seeded per sample.",
        default_method="baseline",
    )
