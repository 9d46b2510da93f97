"""The score matrix: building from records, selecting task types, missing scores."""

from __future__ import annotations

import math

import numpy as np
import pytest

from seebench.stats.matrix import IncompleteMatrixError, ScoreMatrix

TYPES = {"t1": "binary", "t2": "ner", "t3": "regression"}


def _matrix() -> ScoreMatrix:
    records = [
        ("a", "t1", 0.5),
        ("b", "t1", 0.6),
        ("a", "t2", 0.7),
        ("b", "t2", math.nan),
        ("a", "t3", 0.1),
        ("b", "t3", 0.2),
    ]
    return ScoreMatrix.from_records(records, TYPES, {"t1": "f"}, {"a": "g"})


def test_records_keep_first_seen_order() -> None:
    m = _matrix()
    assert m.models == ("a", "b") and m.tasks == ("t1", "t2", "t3")
    assert m.task_families == ("f", "unknown", "unknown")
    assert m.scores[0, 1] == 0.6 and np.isnan(m.scores[1, 1])


def test_duplicate_scores_are_rejected() -> None:
    with pytest.raises(ValueError, match="two scores"):
        ScoreMatrix.from_records([("a", "t1", 0.5), ("a", "t1", 0.6)], TYPES)


def test_select_task_types() -> None:
    assert _matrix().select_task_types({"binary", "regression"}).tasks == ("t1", "t3")


def test_missing_policies() -> None:
    m = _matrix()
    with pytest.raises(IncompleteMatrixError, match="'b' on 't2'"):
        m.complete("error")
    assert m.complete("drop-tasks").tasks == ("t1", "t3")
    dropped = m.complete("drop-models")
    assert dropped.models == ("a",) and dropped.scores.shape == (3, 1)
