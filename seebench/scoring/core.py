"""The per-sample level: :class:`Score`, the :class:`Scorer` contract and the type's own scorer."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from seebench.results.numbers import MAX_FLOAT

if TYPE_CHECKING:
    from seebench.data.dataset import Sample
    from seebench.tasks.spec import TaskSpec

#: Bootstrap resamples for a metric's interval unless a run says otherwise (here, beside
#: the scoring types, so that reading it does not import numpy).
DEFAULT_BOOTSTRAP = 1000

#: The name under which a task's own per-sample score is recorded.
TYPE_SCORER = "sample_score"


@dataclass(frozen=True)
class Score:
    """One sample's score: ``value`` (``None``: could not be scored, e.g. the sandbox was
    unavailable; such samples are left out of score-based metrics and counted), the
    ``answer`` the scorer read, an ``explanation`` and free ``metadata``."""

    value: float | None
    answer: Any = None
    explanation: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value}
        if self.answer is not None:
            out["answer"] = self.answer
        if self.explanation is not None:
            out["explanation"] = self.explanation
        if self.metadata:
            out["metadata"] = self.metadata
        return out

    @classmethod
    def from_json(cls, data: Any) -> Score:
        """Rebuild a score written by :meth:`to_json` (raises ``ValueError`` on bad input)."""
        if not isinstance(data, dict) or "value" not in data:
            raise ValueError(f"not a score: {data!r:.80}")
        value = data["value"]
        if value is not None and (
            not isinstance(value, int | float)
            or isinstance(value, bool)
            or not math.isfinite(value)
            or abs(value) > MAX_FLOAT
        ):
            raise ValueError(f"score value {value!r} is not a finite number")
        return cls(
            value, data.get("answer"), data.get("explanation"), dict(data.get("metadata") or {})
        )


@dataclass
class ScoreContext:
    """What a scorer may use besides the sample and the prediction.

    ``artifacts`` is the unit's artifacts folder (logs, patches, judge transcripts);
    ``client`` returns the model client of a model spec (for judges); ``options`` are the
    run's method options (e.g. ``unsafe_host_exec``).
    """

    task: TaskSpec
    artifacts: Path
    client: Callable[[str], Any] | None = None
    options: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class Scorer(Protocol):
    """What a registered scorer factory returns."""

    def identity(self) -> dict[str, Any]:
        """Everything that changes this scorer's scores (options, a judge's model identity...)."""

    def score(self, sample: Sample, prediction: Any, context: ScoreContext) -> Score:
        """Score one prediction of one sample."""


class TypeScorer:
    """The task type's own per-sample score (exact match, 1 - SMAPE term, token accuracy...)."""

    def identity(self) -> dict[str, Any]:
        return {"scorer": TYPE_SCORER}

    def score(self, sample: Sample, prediction: Any, context: ScoreContext) -> Score:
        task = context.task
        return Score(float(task.behaviour.sample_score(task, sample.target, prediction)))
