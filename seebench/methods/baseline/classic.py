"""The classical SELU baselines as models of the ``baseline`` method: ``tfidf-xgboost`` and
``fasttext`` (estimators in :mod:`seebench.methods.baseline`; xgboost/fastText imported on fit only)."""

from __future__ import annotations

from seebench.hookspecs import RegisterModel, hookimpl
from seebench.models import ModelRef

ESTIMATORS = {
    "tfidf-xgboost": ("seebench.methods.baseline.xgb:TfidfXGBoostEstimator", "xgboost"),
    "fasttext": ("seebench.methods.baseline.ft:FastTextEstimator", "fasttext"),
}


def _version(library: str) -> str | None:
    if library == "xgboost":
        from seebench.methods.baseline.xgb import xgboost_version

        return xgboost_version()
    from seebench.methods.baseline.ft import fasttext_version

    return fasttext_version()


def resolve_classic(spec: str) -> ModelRef:
    """Model resolver for ``tfidf-xgboost`` and ``fasttext``: the library version is part of
    the identity, so results from another version are never mistaken for these."""
    factory, library = ESTIMATORS[spec]
    return ModelRef(
        spec=spec,
        id=spec,
        kind="baseline",
        identity={"estimator": spec, library: _version(library)},
        options={"estimator": factory},
    )


@hookimpl
def register_models(register: RegisterModel) -> None:
    register(
        "tfidf-xgboost",
        "seebench.methods.baseline.classic:resolve_classic",
        description="TF-IDF + XGBoost, SELU's grid (max_depth 3..10 x min_child_weight 1..7) "
        "selected on validation.",
        default_method="baseline",
    )
    register(
        "fasttext",
        "seebench.methods.baseline.classic:resolve_classic",
        description="fastText, SELU's grid (lr 1e-6..1e-1 x epochs 5..20) selected on validation; "
        "regression: averaged word vectors + linear regression.",
        default_method="baseline",
    )
