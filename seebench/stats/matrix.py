"""The model x task score matrix that every analysis works on."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

#: Policies for models or tasks that lack a score.
MISSING_POLICIES = ("error", "drop-tasks", "drop-models")


class IncompleteMatrixError(ValueError):
    """Some (model, task) cells have no score and the policy is ``error``."""


@dataclass(frozen=True)
class ScoreMatrix:
    """Scores of ``models`` on ``tasks``: ``scores[t, m]`` (NaN where missing).

    ``task_types`` and ``task_families`` run parallel to ``tasks``; ``model_groups`` maps a
    model to a group label (for example "generalist") used by the breakdown.
    ``lower_is_better`` names the tasks whose score is better when lower (an error rate);
    the others are better when higher.
    """

    models: tuple[str, ...]
    tasks: tuple[str, ...]
    scores: np.ndarray
    task_types: tuple[str, ...]
    task_families: tuple[str, ...]
    model_groups: Mapping[str, str] = field(default_factory=dict)
    lower_is_better: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        expected = (len(self.tasks), len(self.models))
        if self.scores.shape != expected:
            raise ValueError(f"scores have shape {self.scores.shape}, expected {expected}")
        if not len(self.task_types) == len(self.task_families) == len(self.tasks):
            raise ValueError("task_types and task_families must run parallel to tasks")
        for what, names in (("model", self.models), ("task", self.tasks)):
            if len(set(names)) != len(names):
                raise ValueError(f"duplicate {what} names")

    @classmethod
    def from_records(
        cls,
        records: Iterable[tuple[str, str, float]],
        task_types: Mapping[str, str],
        task_families: Mapping[str, str] | None = None,
        model_groups: Mapping[str, str] | None = None,
    ) -> ScoreMatrix:
        """Build a matrix from ``(model, task, score)`` records, keeping first-seen order.

        A repeated (model, task) pair is an error.
        """
        models: dict[str, int] = {}
        tasks: dict[str, int] = {}
        cells: dict[tuple[int, int], float] = {}
        for model, task, score in records:
            m = models.setdefault(model, len(models))
            t = tasks.setdefault(task, len(tasks))
            if (t, m) in cells:
                raise ValueError(f"two scores for model {model!r} on task {task!r}")
            cells[(t, m)] = float(score)
        scores = np.full((len(tasks), len(models)), np.nan)
        for (t, m), score in cells.items():
            scores[t, m] = score
        families = task_families or {}
        return cls(
            models=tuple(models),
            tasks=tuple(tasks),
            scores=scores,
            task_types=tuple(task_types.get(t, "unknown") for t in tasks),
            task_families=tuple(families.get(t, "unknown") for t in tasks),
            model_groups=dict(model_groups or {}),
        )

    def select_task_types(self, types: Iterable[str]) -> ScoreMatrix:
        """Keep only tasks whose type is in ``types``."""
        wanted = set(types)
        return self._keep_tasks([t in wanted for t in self.task_types])

    def select_tasks(self, names: Iterable[str]) -> ScoreMatrix:
        """Keep only the tasks named in ``names`` (in the matrix's order)."""
        wanted = set(names)
        return self._keep_tasks([t in wanted for t in self.tasks])

    def with_lower_is_better(self, tasks: Iterable[str]) -> ScoreMatrix:
        """The same matrix with ``tasks`` marked as lower-is-better."""
        return replace(self, lower_is_better=frozenset(tasks) & set(self.tasks))

    @property
    def higher_is_better(self) -> bool:
        """The direction shared by all tasks; a ValueError if the tasks disagree."""
        lower = [t for t in self.tasks if t in self.lower_is_better]
        if lower and len(lower) < len(self.tasks):
            higher = next(t for t in self.tasks if t not in self.lower_is_better)
            raise ValueError(
                f"tasks rank in opposite directions ({lower[0]!r}: lower is better, {higher!r}: "
                "higher is better); compare them separately"
            )
        return not lower

    def complete(self, policy: str = "error") -> ScoreMatrix:
        """Return a matrix without missing cells, following ``policy`` (see MISSING_POLICIES)."""
        missing = np.isnan(self.scores)
        if not missing.any():
            return self
        if policy == "drop-tasks":
            return self._keep_tasks(~missing.any(axis=1))
        if policy == "drop-models":
            keep = ~missing.any(axis=0)
            return replace(
                self,
                models=tuple(m for m, k in zip(self.models, keep, strict=True) if k),
                scores=self.scores[:, keep],
            )
        if policy != "error":
            raise ValueError(f"unknown missing-score policy {policy!r}")
        t, m = np.argwhere(missing)[0]
        raise IncompleteMatrixError(
            f"{int(missing.sum())} (model, task) scores are missing, e.g. {self.models[m]!r} on "
            f"{self.tasks[t]!r}; use --missing drop-tasks or --missing drop-models"
        )

    def _keep_tasks(self, keep: Iterable[bool]) -> ScoreMatrix:
        mask = np.asarray(list(keep), dtype=bool)
        pick = lambda values: tuple(v for v, k in zip(values, mask, strict=True) if k)  # noqa: E731
        return replace(
            self,
            tasks=pick(self.tasks),
            scores=self.scores[mask],
            task_types=pick(self.task_types),
            task_families=pick(self.task_families),
            lower_is_better=self.lower_is_better & set(pick(self.tasks)),
        )
