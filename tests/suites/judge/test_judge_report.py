"""Agreement rows for every released method, and their Markdown table."""

from __future__ import annotations

import math

import pytest

from seebench.suites.judge.report import markdown_table, released_agreement


def test_scoring_rows_show_the_study_figures_beside_seebenchs(released):
    rows = {
        r["method"]: r
        for r in released_agreement(released("codetransocean_scoring"), n_bootstrap=50)
    }
    assert len(rows) == 18
    gpt4o = rows["gpt4o"]
    assert gpt4o["spearman_as_released"] == pytest.approx(0.707, abs=5e-4)
    # one -1 is left out of seebench's figure and counted
    assert gpt4o["unscored_rate"] == pytest.approx(1 / 150)
    assert gpt4o["spearman_pooled"] != gpt4o["spearman_as_released"]
    low, high = gpt4o["spearman_pooled_ci"]
    assert low < gpt4o["spearman_pooled"] < high
    assert rows["bleu"]["unscored_rate"] == 0
    assert rows["bleu"]["spearman_pooled"] == rows["bleu"]["spearman_as_released"]


def test_comparison_rows_carry_position_bias(released):
    rows = released_agreement(released("complexcodeeval_comparison"))
    assert {r["method"] for r in rows} >= {"gpt4o", "geval", "batcheval", "llama2"}
    assert all(0 <= r["position_bias_rate"] <= 1 for r in rows)


def test_markdown_table_formats_numbers_intervals_and_gaps():
    table = markdown_table(
        [{"method": "x", "r": 0.12345, "ci": (0.1, 0.2), "none": math.nan}],
        ["method", "r", "ci", "none", "absent"],
    )
    assert table.splitlines()[2] == "| x | 0.123 | [0.100, 0.200] | n/a |  |"
