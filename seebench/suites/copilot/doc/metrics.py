"""Rates over the ``copilot_doc`` scorer's per-check results (unscored cases left out)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from seebench.scoring.core import Score
from seebench.scoring.ratio import item_ratio

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
    scored = [s for s in scores if s.value is not None]
    if not scored:
        return math.nan
    return sum(1 for s in scored if _passed(s, check)) / len(scored)


def _passed(score: Score, check: str) -> bool:
    if not check:
        return score.value >= 1.0
    return bool((score.metadata.get("checks") or {}).get(check))


def _metric(check: str):
    def counts(score: Score) -> tuple[int, int]:
        if score.value is None:
            return 0, 0
        return int(_passed(score, check)), 1

    @item_ratio(counts)
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
