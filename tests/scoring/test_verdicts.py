"""Sample verdicts: six words, every sandbox verdict mapped, infra errors never a model's 0."""

from __future__ import annotations

from types import SimpleNamespace

from seebench.sandbox import VERDICTS
from seebench.scoring.verdicts import (
    SAMPLE_VERDICTS,
    count_verdicts,
    from_sandbox,
    score_value,
)


def test_the_six_verdicts():
    assert SAMPLE_VERDICTS == ("passed", "failed", "error", "timeout", "tampered", "infra_error")


def test_every_sandbox_verdict_is_a_sample_verdict():
    mapped = {verdict: from_sandbox(verdict) for verdict in VERDICTS}
    assert set(mapped.values()) <= set(SAMPLE_VERDICTS)
    assert mapped["memory"] == mapped["crashed"] == "error"
    assert mapped["sandbox_unavailable"] == "infra_error"
    assert from_sandbox("something new") == "infra_error"  # never silently the model's failure


def test_values():
    assert score_value("passed") == 1.0 and score_value("infra_error") is None
    assert {score_value(v) for v in ("failed", "error", "timeout", "tampered")} == {0.0}


def test_counts_in_table_order():
    scores = [
        SimpleNamespace(metadata={"verdict": v})
        for v in ("infra_error", "passed", "failed", "passed")
    ] + [SimpleNamespace(metadata={}), SimpleNamespace(metadata=None)]
    counts = count_verdicts(scores)
    assert counts == {"passed": 2, "failed": 1, "infra_error": 1}
    assert list(counts) == ["passed", "failed", "infra_error"]
