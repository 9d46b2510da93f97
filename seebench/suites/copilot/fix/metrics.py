"""Metrics over the ``copilot_fix`` scorer's per-sample verdicts (unscored samples left out)."""

from __future__ import annotations

from collections.abc import Sequence

from seebench.scoring.core import Score
from seebench.scoring.ratio import item_ratio, ratio_of_counts


def _counted(score: Score, key: str) -> tuple[int, int]:
    """(passed, counted) of one score: counted when scored and ``key`` was judged."""
    if score.value is None or score.metadata.get(key) is None:
        return 0, 0
    return int(bool(score.metadata.get(key))), 1


def _rate(scores: Sequence[Score], key: str) -> float:
    return ratio_of_counts(scores, lambda score: _counted(score, key))


@item_ratio(lambda score: _counted(score, "fixed"))
def fix_rate(scores: Sequence[Score]) -> float:
    """The paper's fix rate: edited file parses and has strictly fewer warnings."""
    return _rate(scores, "fixed")


@item_ratio(lambda score: _counted(score, "target_fixed"))
def fix_target_rate(scores: Sequence[Score]) -> float:
    """Share whose target warning is gone at its (diff-mapped) place, syntax intact."""
    return _rate(scores, "target_fixed")


@item_ratio(lambda score: _counted(score, "syntax_ok"))
def fix_syntax_rate(scores: Sequence[Score]) -> float:
    """Share of edited files that parse (tree-sitter)."""
    return _rate(scores, "syntax_ok")


@item_ratio(lambda score: _counted(score, "new_warnings"))
def fix_new_warning_rate(scores: Sequence[Score]) -> float:
    """Share of analysed edits that bring a warning the original did not have."""
    return _rate(scores, "new_warnings")


@item_ratio(lambda score: _counted(score, "suppressed"))
def fix_suppressed_rate(scores: Sequence[Score]) -> float:
    """Share of analysed edits that add an analyzer directive (``# noqa``, ``# type: ignore``,
    ``// eslint-disable-line``...) instead of fixing: verdict ``tampered``, never a fix."""
    return _rate(scores, "suppressed")
