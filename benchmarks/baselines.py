"""TF-IDF+XGBoost model selection: seebench versus a straightforward reference, one process.

    .venv/bin/python benchmarks/baselines.py TASK [--seed 42] [--max-train N] [--jobs J] [--grid N]
                                              [--rounds equal|early]

Both sides search SELU's grid (max_depth 3..10 x min_child_weight 1..7) on the task's train
split, select on its validation split with the task's primary metric, refit the selected
configuration on train + validation and score the test split.

(a) seebench: ``TfidfXGBoostEstimator`` (TF-IDF once, one shared QuantileDMatrix, early
    stopping on validation, grid points in parallel threads).
(b) reference: for every grid point, a fresh ``TfidfVectorizer()`` and a default
    ``XGBClassifier``/``XGBRegressor`` (all cores) fitted on train, no tricks.

Both sides do the same boosting work, so the ratio compares implementations, not budgets:
``--rounds equal`` (the default) boosts 100 rounds on both sides (seebench's early stopping
off); ``--rounds early`` stops both after 10 rounds without improvement of the validation loss
(the reference through XGBoost's own ``early_stopping_rounds`` and ``eval_set``, refitting with
the best iteration's number of rounds, as seebench does).

Prints the wall and CPU time of each, their ratios, and both selected models' validation and
test scores (a speed ratio means little if the two select different models). ``--max-train`` keeps
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


def task_is_multilabel(task_name: str, seed: int) -> bool:
    from seebench.plugin_manager import get_task_index

    return get_task_index().get(task_name).type == "multilabel"


def reference(task, data, seed: int, axes: dict[str, list[int]], early: bool = False):
    """The straightforward search: everything refitted for every grid point."""
    import xgboost as xgb
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.multioutput import MultiOutputClassifier

    from seebench.methods.baseline.common import decode, primary_scorer, target_matrix, texts
    from seebench.plugin_manager import get_registry

    score = primary_scorer(task, get_registry())

    def make(params):
        if early:
            params = {**params, "early_stopping_rounds": 10}
        if task.type == "regression":
            return xgb.XGBRegressor(**params, random_state=seed)
        if task.type == "multilabel":
            return MultiOutputClassifier(xgb.XGBClassifier(**params, random_state=seed))
        return xgb.XGBClassifier(**params, random_state=seed)

    def fit_predict(params, train, evaluated):
        vectorizer = TfidfVectorizer()
        features = vectorizer.fit_transform(texts(train))
        watched = vectorizer.transform(texts(evaluated))
        model = make(params)
        if early:  # stop on the validation split's loss (evaluated is the validation split)
            model.fit(
                features,
                target_matrix(task, train),
                eval_set=[(watched, target_matrix(task, evaluated))],
                verbose=False,
            )
            params["n_estimators"] = int(model.best_iteration) + 1
        else:
            model.fit(features, target_matrix(task, train))
        return decode(task, model.predict(watched))

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
    early, final = False, dict(best[0])  # the refit boosts the selected number of rounds
    predictions = fit_predict(final, data.train + data.validation, data.test)
    return best[0], best[1], score([s.target for s in data.test], predictions), score.name


def ours(task, data, seed: int, jobs: int, axes: dict[str, list[int]], early: bool = False):
    from seebench.methods.baseline.common import primary_scorer
    from seebench.methods.baseline.xgb import TfidfXGBoostEstimator
    from seebench.plugin_manager import get_registry

    score = primary_scorer(task, get_registry())
    estimator = TfidfXGBoostEstimator()
    estimator.registry = get_registry()
    stopping = {"early_stopping_rounds": 10, "early_stopping_metric": "loss"} if early else {}
    options = {"jobs": jobs, "progress": False, "early_stopping_rounds": 0, **stopping, **axes}
    info = estimator.fit(data, seed, options)
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
    parser.add_argument(
        "--rounds",
        choices=("equal", "early"),
        default="equal",
        help="equal: 100 boosting rounds on both sides; early: both stop early on validation loss",
    )
    args = parser.parse_args(argv)
    early = args.rounds == "early"
    if early and task_is_multilabel(args.task, args.seed):
        print("--rounds early: the reference cannot stop a multilabel MultiOutputClassifier early")
        return 2

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

    t0, c0 = time.perf_counter(), time.process_time()
    info, our_test = ours(task, data, args.seed, args.jobs, axes, early)
    our_s, our_cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"(a) seebench : {our_s:8.1f} s ({our_cpu:.1f} s CPU)  selected {info['selected']} "
        f"rounds {info['rounds']} "
        f"validation {info['validation']['score']:.4f} test {our_test:.4f}",
        flush=True,
    )

    t0, c0 = time.perf_counter(), time.process_time()
    ref_params, ref_val, ref_test, metric = reference(task, data, args.seed, axes, early)
    ref_s, ref_cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"(b) reference: {ref_s:8.1f} s ({ref_cpu:.1f} s CPU)  selected {ref_params} "
        f"validation {ref_val:.4f} test {ref_test:.4f}"
    )
    print(
        f"speed-up {ref_s / our_s:.2f}x wall, {ref_cpu / max(our_cpu, 1e-9):.2f}x CPU "
        f"(rounds: {args.rounds}); validation {metric}: seebench "
        f"{info['validation']['score']:.4f} vs reference {ref_val:.4f}; test {metric}: seebench "
        f"{our_test:.4f} vs reference {ref_test:.4f} (difference {our_test - ref_test:+.4f})"
    )
    return 0 if np.isfinite(our_test) else 1


if __name__ == "__main__":
    sys.exit(main())
