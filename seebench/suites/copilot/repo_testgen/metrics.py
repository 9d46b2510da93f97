"""Metrics over the scores of ``copilot_repo_test`` beside part 1's (``success_rate``,
``invokes_rate`` of :mod:`seebench.suites.copilot.testgen.metrics`, over scored items)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from seebench.scoring.core import Score


def pass_rate(scores: Sequence[Score]) -> float:
    """Share of scored generated tests that pass (whether or not they call the focal method)."""
    scored = [s for s in scores if s.value is not None]
    if not scored:
        return math.nan
    return sum(1 for s in scored if s.metadata.get("passed") is True) / len(scored)


def excluded(scores: Sequence[Score]) -> float:
    """How many items were excluded (repository environment not ready, data missing)."""
    return float(sum(1 for s in scores if s.metadata.get("excluded")))


def invalid(scores: Sequence[Score]) -> float:
    """How many items failed the validity check (a trivial test placed the same way fails)."""
    return float(sum(1 for s in scores if s.metadata.get("valid") is False))


def tampered(scores: Sequence[Score]) -> float:
    """How many generated tests were refused or caught touching the test infrastructure
    (scored 0, counted apart from failures)."""
    return float(sum(1 for s in scores if s.metadata.get("tampered")))
