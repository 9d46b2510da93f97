"""What both classical baselines share: texts, target encoding, scoring, options, the grid loop."""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from seebench.data.dataset import Sample, TaskData
from seebench.errors import SeebenchError
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import LABEL, LABEL_SET, NUMBER

if TYPE_CHECKING:
    from rich.progress import Progress

SUPPORTED_KINDS = (LABEL, LABEL_SET, NUMBER)

#: Fraction of train carved out for model selection when a task has no validation split.
CARVED_VALIDATION = 0.1


def not_applicable(task: TaskSpec, name: str) -> str | None:
    """The reason a classical baseline cannot run ``task`` (NER, MLM...), or ``None``."""
    if task.target_kind not in SUPPORTED_KINDS:
        return f"{name} is a text classification/regression baseline; it does not apply to {task.type} tasks"
    return None


def text_of(value: Any) -> str:
    """One line of text from a sample input (strings, token lists, dicts of fields)."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, dict):
        text = " ".join(text_of(v) for v in value.values() if v is not None)
    elif isinstance(value, list | tuple):
        text = " ".join(text_of(v) for v in value if v is not None)
    else:
        text = "" if value is None else str(value)
    return re.sub(r"\s+", " ", text).strip()


def texts(samples: Iterable[Sample]) -> list[str]:
    """The input text of every sample, newlines folded into spaces."""
    return [text_of(s.input) for s in samples]


def target_matrix(task: TaskSpec, samples: Sequence[Sample]) -> np.ndarray:
    """Numeric targets: label indices (binary/multiclass), a 0/1 column per label
    (multilabel) or the values (regression)."""
    if task.target_kind == NUMBER:
        return np.array([float(s.target) for s in samples], dtype=np.float64)
    names = task.label_names
    if task.target_kind == LABEL_SET:
        matrix = np.zeros((len(samples), len(names)), dtype=np.float32)
        for row, sample in enumerate(samples):
            for label in sample.target:
                matrix[row, names.index(label)] = 1.0
        return matrix
    return np.array([names.index(s.target) for s in samples], dtype=np.int64)


def decode(task: TaskSpec, values: np.ndarray) -> list[Any]:
    """Inverse of :func:`target_matrix` for predictions (multilabel: a 0/1 matrix)."""
    names = task.label_names
    if task.target_kind == NUMBER:
        low, high = _value_range(task)
        return [float(min(max(v, low), high)) for v in np.asarray(values, dtype=np.float64)]
    if task.target_kind == LABEL_SET:
        return [[names[j] for j in np.flatnonzero(row)] for row in np.asarray(values)]
    return [names[int(v)] for v in np.asarray(values)]


def _value_range(task: TaskSpec) -> tuple[float, float]:
    value_range = task.value_range
    if value_range and len(value_range) == 2:
        return float(value_range[0]), float(value_range[1])
    return float("-inf"), float("inf")


@dataclass(frozen=True)
class Scorer:
    """A task's primary metric as ``scorer(golds, predictions)``, scored exactly as the runner
    scores, with its direction (SMAPE and MAE are lower-is-better)."""

    name: str
    func: Callable[..., float]
    kwargs: dict[str, Any]
    higher_is_better: bool = True

    def __call__(self, golds: list[Any], predictions: list[Any]) -> float:
        return float(self.func(golds, predictions, **self.kwargs))

    def better(self, a: float, b: float) -> bool:
        """Whether score ``a`` is strictly better than ``b`` (NaN is never better)."""
        return _better(a, b, self.higher_is_better)


def primary_scorer(task: TaskSpec, registry: Any) -> Scorer:
    """The task's primary metric (looked up in ``registry``) as a :class:`Scorer`."""
    entry = registry.metric(task.primary_metric)
    kwargs = {"labels": task.label_names} if task.labels else {}
    return Scorer(task.primary_metric, entry.load(), kwargs, entry.higher_is_better)


def selection_splits(data: TaskData, seed: int) -> tuple[list[Sample], list[Sample], bool]:
    """(train, validation, carved): the task's validation split, or, when it has none, a
    seeded ``CARVED_VALIDATION`` share of train (``carved`` is then true)."""
    if data.validation:
        return list(data.train), list(data.validation), False
    if len(data.train) < 4:
        raise SeebenchError(
            f"task {data.task.name!r}: too few training samples ({len(data.train)}) for model selection"
        )
    task = data.task
    targets = [s.target for s in data.train]
    train, validation = task.behaviour.hold_out(
        task, list(data.train), targets, CARVED_VALIDATION, seed + 17
    )
    return train, validation, True


# --- options -------------------------------------------------------------------------


def int_list(value: Any, key: str) -> list[int]:
    """``[3, 4]``, ``"3,4"``, ``"3..10"`` or ``5`` as a list of ints."""
    return [int(v) for v in _number_list(value, key, int)]


def float_list(value: Any, key: str) -> list[float]:
    """``[1e-3, 1e-2]``, ``"1e-3,1e-2"`` or ``0.1`` as a list of floats."""
    return [float(v) for v in _number_list(value, key, float)]


def _number_list(value: Any, key: str, kind: type) -> list[Any]:
    try:
        if isinstance(value, list | tuple):
            items = [kind(v) for v in value]
        elif isinstance(value, str) and ".." in value:
            low, high = value.split("..", 1)
            items = list(range(int(low), int(high) + 1))
        elif isinstance(value, str):
            items = [kind(v) for v in value.split(",") if v.strip()]
        else:
            items = [kind(value)]
    except (TypeError, ValueError):
        raise SeebenchError(
            f"option {key}={value!r}: expected a number, a list or LOW..HIGH"
        ) from None
    if not items:
        raise SeebenchError(f"option {key}={value!r}: empty list")
    return items


def as_bool(value: Any, key: str) -> bool:
    """A boolean option (``true``/``false``/``1``/``0``)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise SeebenchError(f"option {key}={value!r}: expected true or false")


def check_known(options: dict[str, Any], known: Iterable[str], name: str) -> None:
    """Fail with one line on an unknown option (a typo would otherwise be silently ignored)."""
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise SeebenchError(
            f"{name}: unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
        )


# --- the grid loop ---------------------------------------------------------------------


@dataclass
class GridPoint:
    """One evaluated hyper-parameter combination."""

    params: dict[str, Any]
    score: float
    extra: dict[str, Any] = field(default_factory=dict)


def grid(axes: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """All combinations of ``axes`` in a fixed order (first axis slowest)."""
    keys = list(axes)
    return [
        dict(zip(keys, values, strict=True))
        for values in itertools.product(*(axes[k] for k in keys))
    ]


def best_point(points: Sequence[GridPoint], higher_is_better: bool = True) -> GridPoint:
    """Best validation score (highest, or lowest for a lower-is-better metric); ties go to the
    earliest point in grid order (deterministic); a NaN score is never selected over a number."""
    best = points[0]
    for point in points[1:]:
        if _better(point.score, best.score, higher_is_better):
            best = point
    return best


def _better(a: float, b: float, higher_is_better: bool) -> bool:
    if a != a:
        return False
    if b != b:
        return True
    return a > b if higher_is_better else a < b


class GridProgress:
    """A progress bar over grid points (rich, on standard error) and a one-line summary."""

    def __init__(self, title: str, total: int, enabled: bool = True):
        self.title, self.total, self.enabled = title, total, enabled
        self.started = time.perf_counter()
        self._progress: Progress | None = None

    def __enter__(self) -> GridProgress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(
                TextColumn("  {task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("grid points"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._progress.__enter__()
            self._bar = self._progress.add_task(self.title, total=self.total)
        return self

    def advance(self, n: int = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._bar, n)

    def __exit__(self, *exc: Any) -> None:
        if self._progress is not None:
            self._progress.__exit__(*exc)

    def summary(self, text: str) -> None:
        """Print the selection summary (always a plain line on standard error)."""
        if self.enabled:
            import sys

            seconds = time.perf_counter() - self.started
            print(
                f"  {self.title}: {text} [{self.total} grid points, {seconds:.1f}s]",
                file=sys.stderr,
            )


# --- option schemas (checked before a run starts) --------------------------------------

INT_GRID = {
    "anyOf": [
        {"type": "integer"},
        {"type": "array", "items": {"type": "integer"}},
        {"type": "string", "pattern": r"^\s*\d+\s*(\.\.\s*\d+|(,\s*\d+\s*)*)\s*$"},
    ],
    "description": "an integer, a list of integers, 'A,B' or 'LOW..HIGH'",
}
FLOAT_GRID = {
    "anyOf": [
        {"type": "number"},
        {"type": "array", "items": {"type": "number"}},
        {"type": "string", "pattern": r"^\s*[-+.\deE]+(\s*,\s*[-+.\deE]+)*\s*$"},
    ],
    "description": "a number, a list of numbers or 'A,B'",
}
BOOL = {
    "anyOf": [{"type": "boolean"}, {"enum": [0, 1, "true", "false", "yes", "no", "on", "off"]}],
    "description": "true or false",
}


def int_option(minimum: int = 0) -> dict[str, Any]:
    return {"type": "integer", "minimum": minimum, "description": f"an integer >= {minimum}"}
