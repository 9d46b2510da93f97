"""Table V of the SELU paper: pooled scores by task family and task type, per model group."""

from __future__ import annotations

import numpy as np

from seebench.stats.matrix import ScoreMatrix
from seebench.stats.report import BreakdownRow

#: The group used when no model groups are known.
ALL_MODELS = "all models"


def model_groups(matrix: ScoreMatrix) -> dict[str, list[int]]:
    """Column indices of each model group, groups in order of first appearance."""
    groups: dict[str, list[int]] = {}
    for m, model in enumerate(matrix.models):
        groups.setdefault(matrix.model_groups.get(model, ALL_MODELS), []).append(m)
    return groups


def breakdown(matrix: ScoreMatrix) -> tuple[BreakdownRow, ...]:
    """Mean and SD (ddof 1) of all available scores per (dimension value, model group).

    As in the paper's Table V the statistics pool every (model, task) score of the group on
    the tasks of that family or type; missing scores are ignored.
    """
    rows = []
    groups = model_groups(matrix)
    for dimension, labels in (("task family", matrix.task_families), ("task type", matrix.task_types)):
        for value in dict.fromkeys(labels):
            task_mask = np.array([label == value for label in labels])
            for group, columns in groups.items():
                block = matrix.scores[np.ix_(task_mask, columns)]
                present = block[~np.isnan(block)]
                if present.size == 0:
                    continue
                rows.append(
                    BreakdownRow(
                        dimension=dimension,
                        value=value,
                        group=group,
                        n_models=int((~np.isnan(block)).any(axis=0).sum()),
                        n_tasks=int((~np.isnan(block)).any(axis=1).sum()),
                        n_scores=int(present.size),
                        mean=float(present.mean()),
                        sd=float(present.std(ddof=1)) if present.size > 1 else float("nan"),
                    )
                )
    return tuple(rows)
