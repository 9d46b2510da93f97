"""TF-IDF+XGBoost model selection: seebench versus a straightforward reference, one process.

    .venv/bin/python benchmarks/baselines.py TASK [--seed 42] [--max-train N] [--jobs J] [--grid N]

Both sides search SELU's grid (max_depth 3..10 x min_child_weight 1..7) on the task's train
split, select on its validation split with the task's primary metric, refit the selected
configuration on train + validation and score the test split.

(a) seebench: ``TfidfXGBoostEstimator`` (TF-IDF once, one shared QuantileDMatrix, early
    stopping on validation, grid points in parallel threads).
(b) reference: for every grid point, a fresh ``TfidfVectorizer()`` and a default
    ``XGBClassifier``/``XGBRegressor`` (100 rounds, all cores) fitted on train, no tricks.

Prints the wall time of each, their ratio and both selected test scores. ``--max-train`` keeps
a seeded subset of the train split (on both sides) where the reference would take hours.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import replace

import numpy as np


def load(task_name: str, seed: int, max_train: int | None):
    from seebench.data.dataset import load_task_data
    from seebench.plugin_manager import get_registry, get_task_index

    registry = get_registry()
    task = get_task_index().get(task_name)
    data = load_task_data(task, registry, seed=seed)
    if max_train and len(data.train) > max_train:
        keep = sorted(random.Random(seed).sample(range(len(data.train)), max_train))
        data = replace(data, train=[data.train[i] for i in keep])
    return task, data


def reference(task, data, seed: int, axes: dict[str, list[int]]):
    """The straightforward search: everything refitted for every grid point."""
    import xgboost as xgb
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.multioutput import MultiOutputClassifier

    from seebench.methods.baseline.common import decode, primary_scorer, target_matrix, texts

    score = primary_scorer(task)

    def make(params):
        if task.type == "regression":
            return xgb.XGBRegressor(**params, random_state=seed)
        if task.type == "multilabel":
            return MultiOutputClassifier(xgb.XGBClassifier(**params, random_state=seed))
        return xgb.XGBClassifier(**params, random_state=seed)

    def fit_predict(params, train, evaluated):
        vectorizer = TfidfVectorizer()
        model = make(params).fit(vectorizer.fit_transform(texts(train)), target_matrix(task, train))
        return decode(task, model.predict(vectorizer.transform(texts(evaluated))))

    best = None
    for max_depth in axes["max_depth"]:
        for min_child_weight in axes["min_child_weight"]:
            params = {"max_depth": max_depth, "min_child_weight": min_child_weight}
            value = score(
                [s.target for s in data.validation],
                fit_predict(params, data.train, data.validation),
            )
            if best is None or score.better(value, best[1]):
                best = (params, value)
    predictions = fit_predict(best[0], data.train + data.validation, data.test)
    return best[0], best[1], score([s.target for s in data.test], predictions), score.name


def ours(task, data, seed: int, jobs: int, axes: dict[str, list[int]]):
    from seebench.methods.baseline.common import primary_scorer
    from seebench.methods.baseline.xgb import TfidfXGBoostEstimator

    score = primary_scorer(task)
    estimator = TfidfXGBoostEstimator()
    info = estimator.fit(data, seed, {"jobs": jobs, "progress": False, **axes})
    test = score([s.target for s in data.test], estimator.predict(data.test))
    return info, test


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--max-train", type=int, help="keep a seeded subset of N train samples")
    parser.add_argument(
        "--jobs", type=int, default=0, help="seebench's parallel grid points (0: one per core)"
    )
    parser.add_argument(
        "--grid", type=int, help="search only the first N values of each axis (a quick check)"
    )
    args = parser.parse_args(argv)

    import xgboost

    from seebench.methods.baseline.xgb import SELU_MAX_DEPTH, SELU_MIN_CHILD_WEIGHT

    task, data = load(args.task, args.seed, args.max_train)
    axes = {
        "max_depth": SELU_MAX_DEPTH[: args.grid],
        "min_child_weight": SELU_MIN_CHILD_WEIGHT[: args.grid],
    }
    print(
        f"task {task.name} ({task.type}); train/validation/test {len(data.train)}/{len(data.validation)}/"
        f"{len(data.test)}; grid {len(axes['max_depth'])}x{len(axes['min_child_weight'])}; "
        f"xgboost {xgboost.__version__}; seed {args.seed}",
        flush=True,
    )

    t0 = time.perf_counter()
    info, our_test = ours(task, data, args.seed, args.jobs, axes)
    our_s = time.perf_counter() - t0
    print(
        f"(a) seebench : {our_s:8.1f} s  selected {info['selected']} rounds {info['rounds']} "
        f"validation {info['validation']['score']:.4f} test {our_test:.4f}",
        flush=True,
    )

    t0 = time.perf_counter()
    ref_params, ref_val, ref_test, metric = reference(task, data, args.seed, axes)
    ref_s = time.perf_counter() - t0
    print(
        f"(b) reference: {ref_s:8.1f} s  selected {ref_params} validation {ref_val:.4f} test {ref_test:.4f}"
    )
    print(
        f"speed-up {ref_s / our_s:.2f}x; test {metric}: seebench {our_test:.4f} vs reference {ref_test:.4f} "
        f"(difference {our_test - ref_test:+.4f})"
    )
    return 0 if np.isfinite(our_test) else 1


if __name__ == "__main__":
    sys.exit(main())
