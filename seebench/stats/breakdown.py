"""The breakdown table: pooled scores by task family and task type, per model group."""

from __future__ import annotations

import numpy as np

from seebench.stats.matrix import ScoreMatrix
from seebench.stats.report import BreakdownRow

#: The group of every model when no model groups are known.
ALL_MODELS = "all models"
#: The group of models without one when other models have groups.
OTHER = "other"


def model_groups(matrix: ScoreMatrix) -> dict[str, list[int]]:
    """Column indices of each model group, groups in order of first appearance."""
    known = any(matrix.model_groups.get(model) for model in matrix.models)
    groups: dict[str, list[int]] = {}
    for m, model in enumerate(matrix.models):
        group = matrix.model_groups.get(model) or (OTHER if known else ALL_MODELS)
        groups.setdefault(group, []).append(m)
    return groups


def breakdown(
    matrix: ScoreMatrix, types_matrix: ScoreMatrix | None = None
) -> tuple[BreakdownRow, ...]:
    """Mean and SD (ddof 1) of all available scores per (dimension value, model group).

    As in the paper's Table V the statistics pool every (model, task) score of the group on
    the tasks of that family or type; missing scores are ignored. Families aggregate the
    tasks of ``matrix``; task types those of ``types_matrix`` when given, which may add types
    that only some models have scores for (as the paper's Table VI does for NER and MLM).
    """
    by_type = types_matrix or matrix
    return tuple(
        _rows(matrix, "task family", matrix.task_families)
        + _rows(by_type, "task type", by_type.task_types)
    )


def _rows(matrix: ScoreMatrix, dimension: str, labels: tuple[str, ...]) -> list[BreakdownRow]:
    rows = []
    groups = model_groups(matrix)
    for value in dict.fromkeys(labels):
        task_mask = np.array([label == value for label in labels])
        for group, columns in groups.items():
            block = matrix.scores[np.ix_(task_mask, columns)]  # type: ignore[arg-type]  # numpy's stubs refuse the list of ints ix_ takes
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
    return rows
