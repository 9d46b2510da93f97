"""Metrics over the ``copilot_repo_generate`` scorer's verdicts (excluded items left out of
the rates and counted by :func:`repo_generate_excluded_rate`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from seebench.scoring.core import Score


def _share(scores: Sequence[Score], key: str) -> float:
    judged = [s for s in scores if s.value is not None]
    if not judged:
        return math.nan
    return sum(1 for s in judged if s.metadata.get(key)) / len(judged)


def repo_generate_pass_rate(scores: Sequence[Score]) -> float:
    """Share of judged answers that parse in place and keep every covering test passing."""
    judged = [s.value for s in scores if s.value is not None]
    return sum(1 for v in judged if v >= 1.0) / len(judged) if judged else math.nan


def repo_generate_syntax_rate(scores: Sequence[Score]) -> float:
    """Share of judged answers whose file parses with the answer in place."""
    return _share(scores, "syntax_ok")


def repo_generate_excluded_rate(scores: Sequence[Score]) -> float:
    """Share of all items that could not be judged here (environment not ready, a covering
    test not passing at baseline, an item that no longer matches its file)."""
    if not scores:
        return math.nan
    return sum(1 for s in scores if s.metadata.get("excluded")) / len(scores)


def repo_generate_tampered(scores: Sequence[Score]) -> float:
    """How many answers were refused or caught touching the test infrastructure (scored 0,
    counted apart from failures)."""
    return float(sum(1 for s in scores if s.metadata.get("tampered")))
