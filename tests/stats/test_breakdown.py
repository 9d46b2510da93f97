"""Table V of the SELU paper: pooled scores of fine-tuned LLMs by task family and task type."""

from __future__ import annotations

import numpy as np
import pytest

from seebench.leaderboard.inputs import read_inputs
from seebench.plugin_manager import get_registry
from seebench.stats import ComparisonReport, ScoreMatrix
from seebench.stats.breakdown import breakdown
from tests.stats.conftest import DATA, SELU_CSV

# (family or type, generalist M, SD, domain-adapted M, SD): as published (paper Table V).
TABLE_V = [
    ("code-adjacent metadata", 0.723, 0.154, 0.739, 0.148),
    ("core non-code", 0.670, 0.234, 0.694, 0.196),
    ("developer communication", 0.722, 0.122, 0.694, 0.131),
    ("binary", 0.806, 0.110, 0.783, 0.140),
    ("multiclass", 0.750, 0.124, 0.761, 0.098),
    ("multilabel", 0.575, 0.173, 0.611, 0.160),
]


@pytest.mark.parametrize("published", TABLE_V, ids=[row[0] for row in TABLE_V])
def test_table_v(selu_report: ComparisonReport, published: tuple) -> None:
    value, gen_m, gen_sd, dom_m, dom_sd = published
    cells = {row.group: row for row in selu_report.breakdown if row.value == value}
    assert cells["generalist"].mean == pytest.approx(gen_m, abs=0.0007)
    assert cells["generalist"].sd == pytest.approx(gen_sd, abs=0.0007)
    assert cells["domain-adapted"].mean == pytest.approx(dom_m, abs=0.0007)
    assert cells["domain-adapted"].sd == pytest.approx(dom_sd, abs=0.0007)
    assert cells["generalist"].n_models == 16 and cells["domain-adapted"].n_models == 6


def test_every_group_and_dimension_is_present(selu_report: ComparisonReport) -> None:
    groups = {row.group for row in selu_report.breakdown}
    assert groups == {"generalist", "domain-adapted", "prompted", "baseline"}
    families = {row.value for row in selu_report.breakdown if row.dimension == "task family"}
    assert families == {"code-adjacent metadata", "core non-code", "developer communication"}


def test_types_with_partial_scores_do_not_change_the_families(selu_matrix: ScoreMatrix) -> None:
    """NER and MLM (paper Table VI) add task-type rows but stay out of the family rows."""
    with_extra = read_inputs([SELU_CSV, DATA / "selu_table_vi_ner_mlm.csv"]).to_matrix(
        get_registry()
    )
    rows = breakdown(selu_matrix, with_extra)
    families = [r for r in rows if r.dimension == "task family"]
    assert families == [r for r in breakdown(selu_matrix) if r.dimension == "task family"]
    ner = {r.group: r for r in rows if r.value == "ner"}
    assert ner["generalist"].mean == pytest.approx(0.478, abs=0.0007)
    assert ner["generalist"].sd == pytest.approx(0.071, abs=0.0007)
    assert ner["domain-adapted"].mean == pytest.approx(0.528, abs=0.0007)
    mlm = {r.group: r for r in rows if r.value == "mlm"}
    assert mlm["generalist"].mean == pytest.approx(0.62, abs=0.0007)
    assert mlm["domain-adapted"].n_scores == 1


def test_models_without_a_group() -> None:
    m = ScoreMatrix(("a", "b"), ("t",), np.array([[0.5, 0.7]]), ("binary",), ("f",), {"a": "g"})
    assert {r.group for r in breakdown(m)} == {"g", "other"}
    m = ScoreMatrix(("a", "b"), ("t",), np.array([[0.5, 0.7]]), ("binary",), ("f",))
    assert {r.group for r in breakdown(m)} == {"all models"}
