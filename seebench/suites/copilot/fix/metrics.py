"""Metrics over the ``copilot_fix`` scorer's per-sample verdicts (unscored samples left out)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from seebench.scoring.core import Score


def _rate(scores: Sequence[Score], key: str) -> float:
    values = [
        bool(s.metadata.get(key))
        for s in scores
        if s.value is not None and s.metadata.get(key) is not None
    ]
    return sum(values) / len(values) if values else math.nan


def fix_rate(scores: Sequence[Score]) -> float:
    """The paper's fix rate: edited file parses and has strictly fewer warnings."""
    return _rate(scores, "fixed")


def fix_target_rate(scores: Sequence[Score]) -> float:
    """Share whose target warning is gone at its (diff-mapped) place, syntax intact."""
    return _rate(scores, "target_fixed")


def fix_syntax_rate(scores: Sequence[Score]) -> float:
    """Share of edited files that parse (tree-sitter)."""
    return _rate(scores, "syntax_ok")


def fix_new_warning_rate(scores: Sequence[Score]) -> float:
    """Share of analysed edits that bring a warning the original did not have."""
    return _rate(scores, "new_warnings")
