"""Rates over the ``copilot_doc`` scorer's per-check results (unscored cases left out)."""

from __future__ import annotations

from collections.abc import Sequence

from seebench.scoring.core import Score
from seebench.scoring.ratio import item_ratio, ratio_of_counts

#: metric name -> (the check it counts, what it measures)
CHECK_METRICS = {
    "doc_pass_rate": ("", "syntax and format both correct (the scenario's success)"),
    "doc_syntax_rate": ("syntax", "the file with the answer parses (no new syntax error)"),
    "doc_format_rate": ("format", "every format check passes"),
    "doc_found_rate": ("found", "the answer holds the focal function, by name"),
    "doc_placement_rate": ("placement", "a doc comment in the language's place and convention"),
    "doc_description_rate": ("description", "the doc comment describes the function"),
    "doc_params_rate": ("params", "every parameter is documented"),
    "doc_returns_rate": ("returns", "the return value is documented when there is one"),
    "doc_unchanged_rate": ("unchanged", "name, parameters and body left as they were"),
}


def check_rate(scores: Sequence[Score], check: str) -> float:
    """The share of scored samples whose ``check`` passed ("": the score itself is 1.0);
    NaN when none was scored."""
    return ratio_of_counts(scores, lambda score: _counts(score, check))


def _counts(score: Score, check: str) -> tuple[int, int]:
    """(passed, counted) of one score: unscored samples count for nothing."""
    if score.value is None:
        return 0, 0
    if not check:
        return int(score.value >= 1.0), 1
    return int(bool((score.metadata.get("checks") or {}).get(check))), 1


def _metric(check: str):
    @item_ratio(lambda score: _counts(score, check))
    def rate(scores: Sequence[Score]) -> float:
        return check_rate(scores, check)

    return rate


doc_pass_rate = _metric("")
doc_syntax_rate = _metric("syntax")
doc_format_rate = _metric("format")
doc_found_rate = _metric("found")
doc_placement_rate = _metric("placement")
doc_description_rate = _metric("description")
doc_params_rate = _metric("params")
doc_returns_rate = _metric("returns")
doc_unchanged_rate = _metric("unchanged")
