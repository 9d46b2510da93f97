"""fastText with SELU's model selection (learning rate 1e-6..1e-1 x epochs 5..20).

Classification: ``fasttext.train_supervised`` (softmax; one-vs-all with a 0.5 threshold for
multi-label, as SELU does), one model per grid point, selected on the validation split with the
task's primary metric, then refitted on train + validation (``refit``). One fastText thread and
a fixed seed make every model deterministic.

Regression (fastText has no regression loss): SELU averages fastText word vectors and fits a
linear regressor, without model selection. SELU used the pre-trained English vectors
(``facebook/fasttext-en-vectors``, 7 GB); seebench never downloads, so it trains CBOW vectors on
the task's training texts (``dim``, ``vector_epoch``) and fits a least-squares regressor on their
averages.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from seebench.data.dataset import Sample, TaskData
from seebench.errors import SeebenchError
from seebench.methods.baseline.common import (
    BOOL,
    FLOAT_GRID,
    INT_GRID,
    GridPoint,
    GridProgress,
    as_bool,
    best_point,
    check_known,
    decode,
    float_list,
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
from seebench.tasks.types import LABEL_SET, NUMBER

#: SELU's grid (paper §IV-C; epochs in steps of 5 as in SELU's replication code).
SELU_LR = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1]
SELU_EPOCH = [5, 10, 15, 20]

DEFAULTS: dict[str, Any] = {
    "lr": SELU_LR,
    "epoch": SELU_EPOCH,
    "threshold": 0.5,  # multi-label decision threshold (SELU)
    "dim": 100,  # fastText's default dimension
    "vector_epoch": 5,  # regression: epochs of the CBOW word vectors
    "refit": True,
    "progress": True,
}

#: JSON Schemas of the options (``-o`` and a task's ``methods.baseline`` block).
OPTIONS: dict[str, Any] = {
    "lr": FLOAT_GRID,
    "epoch": INT_GRID,
    "threshold": {
        "type": "number",
        "minimum": 0,
        "maximum": 1,
        "description": "a number in [0, 1]",
    },
    "dim": int_option(1),
    "vector_epoch": int_option(1),
    "refit": BOOL,
    "progress": BOOL,
}

TOKEN = re.compile(r"(?u)\b\w\w+\b")  # scikit-learn's / SELU's token pattern


def import_fasttext():
    """``fasttext`` or a one-line error naming the extra to install."""
    try:
        import fasttext
    except ImportError:
        raise SeebenchError(
            "fasttext needs fastText: pip install 'seebench[classic]' (fasttext-numpy2-wheel)"
        ) from None
    return fasttext


def fasttext_version() -> str | None:
    """The installed fastText wheel version, without importing it."""
    from importlib import metadata

    for dist in ("fasttext-numpy2-wheel", "fasttext-wheel", "fasttext"):
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return None


def _line(text: str) -> str:
    return text.replace("\n", " ").replace("\r", " ")


class FastTextEstimator:
    """fastText text classifier; averaged fastText vectors + linear regression for regression."""

    name = "fasttext"
    #: the registry its primary metric comes from (set by the baseline method before fit)
    registry: Any = None

    def not_applicable(self, task: TaskSpec) -> str | None:
        return not_applicable(task, self.name)

    def fit(self, data: TaskData, seed: int, options: dict[str, Any]) -> dict[str, Any]:
        fasttext = import_fasttext()
        check_known(options, DEFAULTS, self.name)
        opts = {**DEFAULTS, **options}
        self.task, self.fasttext = data.task, fasttext
        self.seed, self.dim = seed, int(opts["dim"])
        self.threshold = float(opts["threshold"])
        refit = as_bool(opts["refit"], "refit")
        with tempfile.TemporaryDirectory(prefix="seebench-fasttext-") as tmp:
            self.tmp = Path(tmp)
            if data.task.target_kind == NUMBER:
                return self._fit_regression(data, int(opts["vector_epoch"]))
            axes: dict[str, list[Any]] = {
                "lr": float_list(opts["lr"], "lr"),
                "epoch": int_list(opts["epoch"], "epoch"),
            }
            return self._fit_classifier(data, axes, refit, as_bool(opts["progress"], "progress"))

    # -- classification --------------------------------------------------------------------

    def _write(self, samples: list[Sample], name: str) -> str:
        y = target_matrix(self.task, samples)
        lines = []
        for row, text in enumerate(texts(samples)):
            if self.task.target_kind == LABEL_SET:
                labels = " ".join(f"__label__{j}" for j in np.flatnonzero(y[row]))
            else:
                labels = f"__label__{int(y[row])}"
            lines.append(f"{labels} {_line(text)}".strip())
        path = self.tmp / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return str(path)

    def _train(self, path: str, lr: float, epoch: int):
        loss = "ova" if self.task.target_kind == LABEL_SET else "softmax"
        return self.fasttext.train_supervised(
            input=path,
            lr=lr,
            epoch=epoch,
            loss=loss,
            dim=self.dim,
            thread=1,
            seed=self.seed,
            verbose=0,
            pretrainedVectors=self._initial_vectors(path),
        )

    def _initial_vectors(self, path: str) -> str:
        """A ``.vec`` file with a seeded uniform(+-1/dim) start vector for every word of ``path``.

        fastText initialises its input matrix in ten blocks, one per training thread; with fewer
        than ten threads the rest is left as it was allocated, which the fastText wheel for
        numpy 2 does not zero, so training with one thread (needed for determinism) meets NaNs.
        Giving every word its start vector, drawn as fastText draws them, avoids both problems.
        """
        vec_path = path + ".vec"
        if os.path.exists(vec_path):
            return vec_path
        words: dict[str, None] = {"</s>": None}
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                for token in line.split():
                    if not token.startswith("__label__"):
                        words.setdefault(token)
        rng = np.random.default_rng(self.seed)
        bound = 1.0 / self.dim
        matrix = rng.uniform(-bound, bound, size=(len(words), self.dim))
        with open(vec_path, "w", encoding="utf-8") as handle:
            handle.write(f"{len(words)} {self.dim}\n")
            for word, row in zip(words, matrix, strict=True):
                handle.write(word + " " + " ".join(f"{v:.6f}" for v in row) + "\n")
        return vec_path

    def _predict_model(self, model, samples: list[Sample]) -> list[Any]:
        lines = [_line(t) for t in texts(samples)]
        if self.task.target_kind == LABEL_SET:
            labels, probs = model.predict(lines, k=-1, threshold=self.threshold)
            matrix = np.zeros((len(lines), len(self.task.label_names)), dtype=np.int64)
            for row, (names, scores) in enumerate(zip(labels, probs, strict=True)):
                for name, prob in zip(names, scores, strict=True):
                    if prob >= self.threshold:
                        matrix[row, int(name.removeprefix("__label__"))] = 1
            return decode(self.task, matrix)
        labels, _ = model.predict(lines, k=1)
        # a model that saw no label (empty train) predicts nothing: fall back to label 0
        return decode(
            self.task, np.array([int(n[0].removeprefix("__label__")) if n else 0 for n in labels])
        )

    def _fit_classifier(
        self, data: TaskData, axes: dict[str, list], refit: bool, enabled: bool
    ) -> dict[str, Any]:
        """Select the grid point on validation, then refit it on train + validation."""
        train, validation, carved = selection_splits(data, self.seed)
        scorer = primary_scorer(self.task, self.registry)
        points = grid(axes)
        t0 = time.perf_counter()
        results, chosen, best_model = self._search(train, validation, scorer, points, enabled)
        timings = {"search_s": time.perf_counter() - t0}
        t0 = time.perf_counter()
        final, refit_error = self._refit(best_model, train, validation, chosen, refit)
        timings["refit_s"] = time.perf_counter() - t0
        return {
            "estimator": self.name,
            "fasttext": fasttext_version(),
            "selected": dict(chosen.params),
            "validation": {
                "metric": scorer.name,
                "score": chosen.score,
                "n": len(validation),
                "carved_from_train": carved,
            },
            "grid": axes,
            "grid_size": len(points),
            "grid_scores": [
                {**r.params, "score": None if r.score != r.score else r.score, **r.extra}
                for r in results
            ],
            "train_size": len(train),
            "final_train_size": len(final),
            "options": self._classifier_options(refit, refit_error),
            "timings": timings,
        }

    def _search(
        self,
        train: list[Sample],
        validation: list[Sample],
        scorer: Any,
        points: list[dict[str, Any]],
        enabled: bool,
    ) -> tuple[list[GridPoint], GridPoint, Any]:
        """Train every grid point on ``train``, score it on ``validation``: the points' scores,
        the chosen point and its model (a point whose training diverges scores NaN)."""
        train_path = self._write(train, "train.txt")
        golds = [s.target for s in validation]
        results: list[GridPoint] = []
        with GridProgress(f"{self.name} {self.task.name}", len(points), enabled) as progress:
            best_model, best_score = None, float("nan")
            for params in points:
                try:
                    model = self._train(train_path, params["lr"], params["epoch"])
                except RuntimeError as exc:  # fastText diverges ("Encountered NaN") on some points
                    results.append(GridPoint(params, float("nan"), {"error": str(exc)}))
                    progress.advance()
                    continue
                results.append(
                    GridPoint(params, scorer(golds, self._predict_model(model, validation)))
                )
                if scorer.better(results[-1].score, best_score):
                    best_model, best_score = model, results[-1].score
                progress.advance()
            if best_model is None:
                raise SeebenchError(
                    f"fasttext: training failed on every grid point ({results[0].extra.get('error', 'no finite validation score')})"
                )
            chosen = best_point(results, scorer.higher_is_better)
            progress.summary(
                f"selected lr={chosen.params['lr']:g} epoch={chosen.params['epoch']} "
                f"(validation {scorer.name} {chosen.score:.4f})"
            )
        return results, chosen, best_model

    def _refit(
        self,
        best_model: Any,
        train: list[Sample],
        validation: list[Sample],
        chosen: GridPoint,
        refit: bool,
    ) -> tuple[list[Sample], str | None]:
        """Keep the selected model, or (``refit``) retrain its point on train + validation;
        returns the final training set and why a refit failed (the selected model is kept)."""
        final = train + validation if refit else train
        self.model, refit_error = best_model, None
        if refit:
            try:
                self.model = self._train(
                    self._write(final, "final.txt"), chosen.params["lr"], chosen.params["epoch"]
                )
            except RuntimeError as exc:  # keep the selected model trained on train
                refit_error, final = str(exc), train
        return final, refit_error

    def _classifier_options(self, refit: bool, refit_error: str | None) -> dict[str, Any]:
        return {
            "dim": self.dim,
            "threshold": self.threshold,
            "refit": refit,
            "refit_error": refit_error,
            "thread": 1,
            "loss": "ova" if self.task.target_kind == LABEL_SET else "softmax",
        }

    # -- regression --------------------------------------------------------------------------

    def _fit_regression(self, data: TaskData, vector_epoch: int) -> dict[str, Any]:
        from sklearn.linear_model import LinearRegression

        t0 = time.perf_counter()
        train = list(data.train) + list(
            data.validation
        )  # no model selection: use all non-test data
        corpus = self.tmp / "corpus.txt"
        corpus.write_text(
            "\n".join(_line(t).lower() for t in texts(train)) + "\n", encoding="utf-8"
        )
        # no subwords (maxn=0): every row that training reads is a word row set by _initial_vectors
        self.vectors = self.fasttext.train_unsupervised(
            str(corpus),
            model="cbow",
            dim=self.dim,
            epoch=vector_epoch,
            minCount=2,
            minn=0,
            maxn=0,
            thread=1,
            verbose=0,
            pretrainedVectors=self._initial_vectors(str(corpus)),
        )
        features = self._average_vectors(texts(train))
        self.regressor = LinearRegression().fit(features, target_matrix(self.task, train))
        return {
            "estimator": self.name,
            "fasttext": fasttext_version(),
            "regression": "averaged fastText CBOW word vectors (trained on the task's train+validation texts) "
            "+ least-squares linear regression; no model selection (as SELU)",
            "selected": None,
            "grid_size": 1,
            "train_size": len(train),
            "options": {
                "dim": self.dim,
                "vector_epoch": vector_epoch,
                "model": "cbow",
                "minCount": 2,
                "subwords": False,
                "thread": 1,
            },
            "timings": {"fit_s": time.perf_counter() - t0},
        }

    def _average_vectors(self, docs: list[str]) -> np.ndarray:
        cache: dict[str, np.ndarray] = {}
        out = np.zeros((len(docs), self.dim), dtype=np.float64)
        for row, doc in enumerate(docs):
            words = [w for w in TOKEN.findall(doc.lower()) if self.vectors.get_word_id(w) >= 0]
            if not words:
                continue
            for word in words:
                if word not in cache:
                    cache[word] = self.vectors.get_word_vector(word)
                out[row] += cache[word]
            out[row] /= len(words)
        return out

    def predict(self, samples: list[Sample]) -> list[Any]:
        if not samples:
            return []
        if self.task.target_kind == NUMBER:
            return decode(self.task, self.regressor.predict(self._average_vectors(texts(samples))))
        return self._predict_model(self.model, samples)
