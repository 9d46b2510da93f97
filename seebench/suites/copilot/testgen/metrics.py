"""Metrics over the scores of ``copilot_test_run`` (they read its metadata); samples it left
unscored (validity check failed, no sandbox) are left out."""

from __future__ import annotations

import math
from collections.abc import Sequence

from seebench.scoring.core import Score


def _scored(scores: Sequence[Score]) -> list[Score]:
    return [s for s in scores if s.value is not None]


def invokes_rate(scores: Sequence[Score]) -> float:
    """Share of generated tests that call the focal definition while they run (traced)."""
    scored = _scored(scores)
    if not scored:
        return math.nan
    return sum(1 for s in scored if s.metadata.get("invokes") is True) / len(scored)


def success_rate(scores: Sequence[Score]) -> float:
    """Share of generated tests that pass and call the focal definition (§4.2.4's success)."""
    scored = _scored(scores)
    if not scored:
        return math.nan
    hits = sum(1 for s in scored if s.value == 1.0 and s.metadata.get("invokes") is True)
    return hits / len(scored)


def mutation_score(scores: Sequence[Score]) -> float:
    """Mean share of an item's kept mutants that its generated test kills (0 for a test that
    fails on the solution); items without kept mutants are left out."""
    values = [
        float(s.metadata["mutation_score"])
        for s in _scored(scores)
        if isinstance(s.metadata.get("mutation_score"), int | float)
    ]
    return sum(values) / len(values) if values else math.nan
