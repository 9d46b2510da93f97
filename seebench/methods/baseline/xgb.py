"""TF-IDF + XGBoost with SELU's model selection (max_depth 3..10 x min_child_weight 1..7).

How it stays fast while searching the whole grid: the TF-IDF matrix is built once (words seen
in at least ``min_df`` training texts), binned once into a shared ``QuantileDMatrix``
(``max_bin`` histogram bins), every grid point stops boosting when the validation loss has
not improved for ``early_stopping_rounds`` rounds, and grid points are trained in parallel
threads (one XGBoost thread each; XGBoost releases the GIL). Selection is on the validation
split with the task's primary metric; the selected model is refitted on train + validation
with the number of rounds it reached (``refit``), as SELU trains its final model on all
non-test data.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

import numpy as np

from seebench.data.dataset import Sample, TaskData
from seebench.errors import SeebenchError
from seebench.methods.baseline.common import (
    BOOL,
    INT_GRID,
    GridPoint,
    GridProgress,
    as_bool,
    best_point,
    check_known,
    decode,
    grid,
    int_list,
    int_option,
    not_applicable,
    primary_scorer,
    selection_splits,
    target_matrix,
    texts,
)
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import LABEL, LABEL_SET, NUMBER

#: SELU's grid (paper §IV-C): max_depth 3..10, min_child_weight 1..7.
SELU_MAX_DEPTH = list(range(3, 11))
SELU_MIN_CHILD_WEIGHT = list(range(1, 8))

DEFAULTS: dict[str, Any] = {
    "max_depth": SELU_MAX_DEPTH,
    "min_child_weight": SELU_MIN_CHILD_WEIGHT,
    "n_estimators": 100,  # XGBoost's default number of rounds (SELU used the defaults)
    "early_stopping_rounds": 10,  # 0: always boost n_estimators rounds
    "early_stopping_metric": "auto",  # auto, loss or primary (see stop_metric)
    "max_bin": 32,
    "min_df": 2,
    "jobs": 0,  # parallel grid points; 0: one per CPU core
    "refit": True,
    "progress": True,
}


#: JSON Schemas of the options (``-o`` and a task's ``methods.baseline`` block).
OPTIONS: dict[str, Any] = {
    "max_depth": INT_GRID,
    "min_child_weight": INT_GRID,
    "n_estimators": int_option(1),
    "early_stopping_rounds": int_option(0),
    "early_stopping_metric": {
        "enum": ["auto", "loss", "primary"],
        "description": "auto, loss or primary",
    },
    "max_bin": int_option(2),
    "min_df": int_option(1),
    "jobs": int_option(0),
    "refit": BOOL,
    "progress": BOOL,
}


def import_xgboost():
    """``xgboost`` or a one-line error naming the extra to install."""
    try:
        import xgboost
    except ImportError:
        raise SeebenchError(
            "tfidf-xgboost needs xgboost: pip install 'seebench[classic]' (xgboost-cpu)"
        ) from None
    return xgboost


def xgboost_version() -> str | None:
    """The installed xgboost version, without importing it."""
    from importlib import metadata

    for dist in ("xgboost-cpu", "xgboost"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return None


def xgb_objective(task: TaskSpec) -> dict[str, Any]:
    """Booster parameters fixing the learning problem of one sub-model."""
    if task.target_kind == NUMBER:
        return {"objective": "reg:squarederror"}
    if task.target_kind == LABEL and not task.is_binary:
        return {"objective": "multi:softprob", "num_class": len(task.label_names)}
    return {"objective": "binary:logistic"}  # binary, and each label of a multi-label task


@dataclass
class _Settings:
    """The options of one fit, checked and typed."""

    axes: dict[str, list[int]]
    n_estimators: int
    patience: int
    stop_on: str
    max_bin: int
    min_df: int
    jobs: int
    refit: bool
    progress: bool

    def described(self, sub_models: int) -> dict[str, Any]:
        """The options as the unit's ``info`` reports them."""
        return {
            "n_estimators": self.n_estimators,
            "early_stopping_rounds": self.patience,
            "early_stopping_metric": self.stop_on if self.patience else None,
            "max_bin": self.max_bin,
            "min_df": self.min_df,
            "jobs": self.jobs,
            "refit": self.refit,
            "sub_models": sub_models,
        }


def _settings(options: dict[str, Any], name: str, task: TaskSpec) -> _Settings:
    """``options`` over :data:`DEFAULTS`, checked (one line naming a bad option)."""
    check_known(options, DEFAULTS, name)
    opts = {**DEFAULTS, **options}
    return _Settings(
        axes={
            "max_depth": int_list(opts["max_depth"], "max_depth"),
            "min_child_weight": int_list(opts["min_child_weight"], "min_child_weight"),
        },
        n_estimators=int(opts["n_estimators"]),
        patience=int(opts["early_stopping_rounds"]),
        stop_on=stop_metric(task, opts["early_stopping_metric"]),
        max_bin=int(opts["max_bin"]),
        min_df=int(opts["min_df"]),
        jobs=int(opts["jobs"]) or (os.cpu_count() or 1),
        refit=as_bool(opts["refit"], "refit"),
        progress=as_bool(opts["progress"], "progress"),
    )


@dataclass
class _Fit:
    """What the steps of one fit share: the splits, features, binned matrices, the scorer and
    the booster parameters every grid point uses, and the timings so far."""

    xgb: Any
    task: TaskSpec
    train: list[Sample]
    validation: list[Sample]
    carved: bool
    vectorizer: Any
    x_train: Any
    x_val: Any
    columns: list[tuple[int | None, float | None]]
    d_train: list[Any]
    d_val: list[Any]
    scorer: Any
    golds: list[Any]
    base: dict[str, Any]
    stopping: dict[str, Any]
    timings: dict[str, float]


class TfidfXGBoostEstimator:
    """TF-IDF features and one XGBoost model (one per label for multi-label tasks)."""

    name = "tfidf-xgboost"
    #: the registry its primary metric comes from (set by the baseline method before fit)
    registry: Any = None

    def not_applicable(self, task: TaskSpec) -> str | None:
        return not_applicable(task, self.name)

    # -- fitting ---------------------------------------------------------------------------

    def fit(self, data: TaskData, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        """Search the grid on the validation split, refit the selected point; what was done
        (the unit's ``info``)."""
        xgb = import_xgboost()
        settings = _settings(options, self.name, data.task)
        self.task = data.task
        fit = self._prepare(xgb, data, seed, settings)
        points, results, chosen = self._search(fit, settings)
        final_samples = self._refit(fit, settings, chosen)
        return {
            "estimator": self.name,
            "xgboost": xgb.__version__,
            "selected": dict(chosen.params),
            "rounds": chosen.extra["rounds"],
            "validation": {
                "metric": fit.scorer.name,
                "score": chosen.score,
                "n": len(fit.validation),
                "carved_from_train": fit.carved,
            },
            "grid": settings.axes,
            "grid_size": len(points),
            "grid_scores": [
                {**r.params, "score": r.score, "rounds": r.extra["rounds"]}
                for r in results
                if r is not None
            ],
            "features": int(fit.x_train.shape[1]),
            "train_size": len(fit.train),
            "final_train_size": len(final_samples),
            "options": settings.described(len(fit.columns)),
            "timings": fit.timings,
        }

    def _prepare(self, xgb: Any, data: TaskData, seed: int, settings: _Settings) -> _Fit:
        """Split, vectorise and bin the data once; the booster parameters every point shares."""
        from sklearn.feature_extraction.text import TfidfVectorizer

        task = data.task
        t0 = time.perf_counter()
        train, validation, carved = selection_splits(data, seed)
        vectorizer = self._vectorizer(TfidfVectorizer, settings.min_df, len(train))
        x_train = vectorizer.fit_transform(texts(train))
        x_val = vectorizer.transform(texts(validation))
        y_train, y_val = target_matrix(task, train), target_matrix(task, validation)
        columns = _columns(task, y_train)
        d_train: list[Any] = [None] * len(columns)
        d_val: list[Any] = [None] * len(columns)
        for j, col in enumerate(columns):
            ref = d_train[0] if j else None
            d_train[j] = xgb.QuantileDMatrix(
                x_train, label=_column(y_train, col), max_bin=settings.max_bin, ref=ref, nthread=1
            )
            # a plain DMatrix: evaluating a QuantileDMatrix every round costs ~2 ms per round
            # (measured), more than a depth-3 tree on the small SELU tasks; predictions agree
            d_val[j] = xgb.DMatrix(x_val, label=_column(y_val, col), nthread=1)
        timings = {"vectorise_s": time.perf_counter() - t0}
        scorer = primary_scorer(task, self.registry)
        golds = [s.target for s in validation]
        base = {
            **xgb_objective(task),
            "tree_method": "hist",
            "max_bin": settings.max_bin,
            "nthread": 1,
            "seed": seed,
            "verbosity": 0,
        }
        stopping: dict[str, Any] = {}
        if settings.stop_on == "primary":
            stopping = {
                "custom_metric": _primary_metric(task, scorer, golds),
                "maximize": scorer.higher_is_better,
            }
        return _Fit(
            xgb, task, train, validation, carved, vectorizer, x_train, x_val, columns,
            d_train, d_val, scorer, golds, base, stopping, timings,
        )  # fmt: skip

    def _evaluate(self, fit: _Fit, settings: _Settings, params: dict[str, Any]) -> GridPoint:
        """Train one grid point (a booster per column) and score it on the validation split."""
        boosters, rounds = [], []
        for j, col in enumerate(fit.columns):
            booster, n_rounds = _train(
                fit.xgb,
                {**fit.base, **params},
                fit.d_train[j],
                fit.d_val[j],
                settings.n_estimators,
                settings.patience,
                col,
                fit.stopping,
            )
            boosters.append(booster)
            rounds.append(n_rounds)
        predicted = self._predict_columns(
            fit.task,
            boosters,
            rounds,
            fit.d_val[0] if len(fit.columns) == 1 else fit.d_val,
            fit.columns,
            fit.x_val.shape[0],
        )
        score = fit.scorer(fit.golds, decode(fit.task, predicted))
        return GridPoint(params, score, {"rounds": rounds})

    def _search(
        self, fit: _Fit, settings: _Settings
    ) -> tuple[list[dict[str, Any]], list[GridPoint | None], GridPoint]:
        """Every grid point, in parallel threads; the points, their results and the best."""
        t0 = time.perf_counter()
        points = grid(settings.axes)
        results: list[GridPoint | None] = [None] * len(points)
        label = f"{self.name} {fit.task.name}"
        with GridProgress(label, len(points), settings.progress) as progress:
            with ThreadPoolExecutor(max_workers=max(1, min(settings.jobs, len(points)))) as pool:
                # deepest trees first: the slowest points do not end up alone at the tail
                order = sorted(range(len(points)), key=lambda i: -points[i]["max_depth"])
                futures = {pool.submit(self._evaluate, fit, settings, points[i]): i for i in order}
                for future in as_completed(futures):
                    results[futures[future]] = future.result()
                    progress.advance()
            fit.timings["search_s"] = time.perf_counter() - t0
            higher = fit.scorer.higher_is_better
            chosen = best_point([r for r in results if r is not None], higher)
            progress.summary(
                f"selected max_depth={chosen.params['max_depth']} "
                f"min_child_weight={chosen.params['min_child_weight']} "
                f"(validation {fit.scorer.name} {chosen.score:.4f}, "
                f"rounds {chosen.extra['rounds']})"
            )
        return points, results, chosen

    def _refit(self, fit: _Fit, settings: _Settings, chosen: GridPoint) -> list[Sample]:
        """The final boosters of the chosen point (on train + validation with ``refit``, with
        the rounds the search reached); the samples they were trained on."""
        from sklearn.feature_extraction.text import TfidfVectorizer

        t0 = time.perf_counter()
        xgb, rounds = fit.xgb, chosen.extra["rounds"]
        params = {**fit.base, **chosen.params}
        final_samples = fit.train + fit.validation if settings.refit else fit.train
        vectorizer = fit.vectorizer
        if settings.refit:
            vectorizer = self._vectorizer(TfidfVectorizer, settings.min_df, len(final_samples))
            x_final = vectorizer.fit_transform(texts(final_samples))
            y_final = target_matrix(fit.task, final_samples)
            self.boosters = []
            for j, col in enumerate(fit.columns):
                d_final = xgb.QuantileDMatrix(
                    x_final, label=_column(y_final, col), max_bin=settings.max_bin, nthread=1
                )
                booster, _ = _train(xgb, params, d_final, None, rounds[j], 0, col)
                self.boosters.append(booster)
        else:
            self.boosters = [
                _train(xgb, params, fit.d_train[j], None, rounds[j], 0, col)[0]
                for j, col in enumerate(fit.columns)
            ]
        self.rounds = rounds
        self.vectorizer, self.columns, self.xgb = vectorizer, fit.columns, xgb
        fit.timings["refit_s"] = time.perf_counter() - t0
        return final_samples

    @staticmethod
    def _vectorizer(factory, min_df: int, n_texts: int):
        # min_df larger than the corpus would leave no features on tiny tasks
        return factory(min_df=min_df if n_texts >= 10 * min_df else 1, dtype=np.float32)

    # -- prediction ------------------------------------------------------------------------

    @staticmethod
    def _predict_columns(task, boosters, rounds, dmatrix, columns, n_rows) -> np.ndarray:
        """Class indices / 0-1 label matrix / values for ``dmatrix`` (one per column)."""
        outputs = []
        for j, booster in enumerate(boosters):
            matrix = dmatrix[j] if isinstance(dmatrix, list) else dmatrix
            if booster is None:  # a label constant in train
                outputs.append(np.full(n_rows, float(columns[j][1]), dtype=np.float64))
                continue
            outputs.append(booster.predict(matrix, iteration_range=(0, rounds[j])))
        return _decide(task, outputs)

    def predict(self, samples: list[Sample]) -> list[Any]:
        if not samples:
            return []
        x = self.vectorizer.transform(texts(samples))
        dmatrix = self.xgb.DMatrix(x, nthread=1)
        predicted = self._predict_columns(
            self.task, self.boosters, self.rounds, dmatrix, self.columns, x.shape[0]
        )
        return decode(self.task, predicted)


def _decide(task: TaskSpec, outputs: list[np.ndarray]) -> np.ndarray:
    """Values, class indices or a 0/1 label matrix from XGBoost's transformed outputs (one
    array per sub-model: values, positive-class probabilities or class-probability rows)."""
    if task.target_kind == NUMBER:
        return outputs[0]
    if task.target_kind == LABEL and not task.is_binary:
        return np.argmax(outputs[0], axis=1)
    if task.is_binary:
        return (outputs[0] > 0.5).astype(np.int64)
    return np.stack([out > 0.5 for out in outputs], axis=1).astype(np.int64)


def _columns(task: TaskSpec, y: np.ndarray) -> list[tuple[int | None, float | None]]:
    """One entry per sub-model: (label column or None, constant value if the column is constant)."""
    if task.target_kind != LABEL_SET:
        return [(None, None)]
    columns: list[tuple[int | None, float | None]] = []
    for j in range(y.shape[1]):
        values = np.unique(y[:, j])
        columns.append((j, float(values[0]) if len(values) == 1 else None))
    return columns


def _column(y: np.ndarray, col: tuple[int | None, float | None]) -> np.ndarray:
    return y if col[0] is None else y[:, col[0]]


def stop_metric(task: TaskSpec, value: Any) -> str:
    """What early stopping watches on the validation split: ``loss`` (the objective's own loss:
    log loss, squared error) or ``primary`` (the task's primary metric, as selection scores it).

    ``auto`` is ``primary`` for regression and ``loss`` otherwise. Story points are
    heavy-tailed (median 4, maximum 100): the validation squared error stops improving after
    a few rounds while SMAPE, a relative error, keeps improving up to round 100 (measured on
    SELU's story_points), so stopping on the loss would select under-fitted regressors. F1 on
    a small validation split moves in steps of one sample, too coarse to stop on; log loss is
    smooth. Multi-label tasks train one model per label, and F1-macro over labels does not
    split per label, so they stop on the loss.
    """
    choice = str(value).strip().lower()
    if choice not in ("auto", "loss", "primary"):
        raise SeebenchError(
            f"option early_stopping_metric={value!r}: expected auto, loss or primary"
        )
    if choice == "auto":
        return "primary" if task.target_kind == NUMBER else "loss"
    if choice == "primary" and task.target_kind == LABEL_SET:
        raise SeebenchError(
            "option early_stopping_metric=primary: multi-label tasks train one model per label "
            "and their primary metric spans all labels; use loss"
        )
    return choice


def _primary_metric(task: TaskSpec, scorer, golds: list[Any]):
    """An XGBoost ``custom_metric`` scoring the validation predictions with the primary metric.

    XGBoost passes transformed predictions for built-in objectives: values (regression),
    probabilities of the positive class (binary) or a probability row per sample (multiclass).
    """

    def metric(predt: np.ndarray, _dmatrix) -> tuple[str, float]:
        if task.target_kind == LABEL and not task.is_binary:
            predt = predt.reshape(len(golds), -1)
        return scorer.name, scorer(golds, decode(task, _decide(task, [predt])))

    return metric


def _train(
    xgb,
    params,
    d_train,
    d_val,
    n_estimators: int,
    patience: int,
    col,
    stopping: dict[str, Any] | None = None,
) -> tuple[Any, int]:
    """Train one booster; returns it and the number of rounds to use (best iteration + 1).

    ``stopping`` optionally holds a ``custom_metric`` (and ``maximize``) for early stopping;
    without it XGBoost stops on the objective's default validation metric.
    """
    if col[1] is not None:  # constant target: nothing to learn
        return None, 0
    if d_val is not None and patience > 0:
        if stopping:
            params = {**params, "disable_default_eval_metric": 1}
        booster = xgb.train(
            params,
            d_train,
            n_estimators,
            evals=[(d_val, "validation")],
            early_stopping_rounds=patience,
            verbose_eval=False,
            **(stopping or {}),
        )
        return booster, int(booster.best_iteration) + 1
    booster = xgb.train(params, d_train, n_estimators, verbose_eval=False)
    return booster, n_estimators
