"""Per-query scores and the workspace metrics."""

from __future__ import annotations

import math

from seebench.data.dataset import Sample
from seebench.suites.copilot.workspace import scorer as metrics
from seebench.suites.copilot.workspace.scorer import WorkspaceScorer
from seebench.suites.copilot.workspace.types import parse_workspace_reply

CANDIDATES = [
    {"file": "a.py", "start": 1, "end": 9, "symbol": ""},
    {"file": "a.py", "start": 10, "end": 19, "symbol": "f"},
    {"file": "b.py", "start": 1, "end": 30, "symbol": "g"},
]
TARGET = {
    "gold": [{"file": "a.py", "start": 10, "end": 19, "symbol": "f"}],
    "keywords": [["f"], ["cache", "memo"]],
    "candidates": CANDIDATES,
    "excluded": None,
}


def _score(prediction, target=TARGET):
    return WorkspaceScorer().score(Sample("s", "input", target, {}), prediction)


def test_a_ranking_reorders_candidates_and_the_rest_follow():
    reply = parse_workspace_reply("Ranking: 2, 7, 2\nf keeps a memo of results.")
    assert reply.value == {"ranking": [2, 7], "answer": "f keeps a memo of results."}
    score = _score(reply.value)
    assert score.value == 1.0 and score.metadata["ranked"] is True
    assert score.metadata["keywords_all"] is True
    unranked = _score(parse_workspace_reply("I do not know.").value)
    assert unranked.value == 0.5 and unranked.metadata["ranked"] is False  # retriever order
    assert unranked.metadata["keyword_share"] == 0.0


def test_listed_snippets_and_both_rules():
    wide = {"file": "a.py", "start": 1, "end": 40}
    score = _score({"snippets": [wide, CANDIDATES[1]], "answer": "f"})
    assert score.value == 1.0  # overlaps at rank 1
    assert score.metadata["rr_jaccard"] == 0.5  # 10/40 lines: counts only at rank 2
    assert score.metadata["missing_keywords"] == ["cache"]
    assert "ranked" not in score.metadata


def test_excluded_and_missing_answers():
    assert _score({"snippets": []}, {**TARGET, "excluded": "gone"}).value is None
    assert _score(None).value == 0.0


def test_metrics_leave_unscored_queries_out():
    scores = [
        _score(parse_workspace_reply("Ranking: 2\nf uses a cache").value),
        _score({"snippets": [CANDIDATES[2]], "answer": ""}),
        _score({"snippets": []}, {**TARGET, "excluded": "gone"}),
    ]
    assert metrics.workspace_mrr(scores) == 0.5
    assert metrics.workspace_mrr_jaccard(scores) == 0.5
    assert metrics.workspace_keyword_rate(scores) == 0.5
    assert metrics.workspace_keyword_recall(scores) == 0.5
    assert metrics.workspace_ranking_rate(scores) == 1.0
    assert metrics.workspace_candidate_recall(scores) == 1.0
    assert math.isnan(metrics.workspace_mrr(scores[2:]))
