"""Inter-judge agreement of a panel."""

from __future__ import annotations

import pytest

from seebench.suites.judge.methods import RELEASED_METHODS
from seebench.suites.judge.panel import panel_alpha


def test_identical_judges_agree_perfectly_and_unscored_units_are_missing():
    assert panel_alpha({"a": [1, 2, 3, 4], "b": [1, 2, 3, 4]}) == pytest.approx(1.0)
    assert panel_alpha({"a": [1, 2, 3, None], "b": [1, 2, 3, 5]}) == pytest.approx(1.0)


def test_a_panel_needs_two_judges_on_the_same_units():
    with pytest.raises(ValueError, match="at least two judges"):
        panel_alpha({"a": [1, 2]})
    with pytest.raises(ValueError, match="different numbers of units"):
        panel_alpha({"a": [1, 2], "b": [1]})


def test_large_llm_judges_agree_more_with_each_other_than_small_ones(released):
    """The study's observation on code translation, measured as interval alpha."""
    task = released("codetransocean_scoring")

    def scores(name):
        method = RELEASED_METHODS[name]
        return [None if method.is_unscored(v) else v for v in task.methods[name]]

    large = panel_alpha({n: scores(n) for n in ("gpt4o", "dsc2.5", "batcheval", "geval")})
    small = panel_alpha({n: scores(n) for n in ("mixtral", "prometheus", "dsc2-lite")})
    assert large > small
