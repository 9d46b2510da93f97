"""The ``copilot_workspace`` scorer and the workspace metrics.

One Score per query: its value is the reciprocal rank under the exact (overlap) rule; the
metadata hold the same under the line-Jaccard rule, the keywords found in the answer, whether
a prompted model gave a ranking and whether a gold snippet was among the candidates it was
shown. An excluded query is unscored (value ``None``, reason in the explanation).

A prompted model's ranking lists candidate numbers; the snippets it ranks come first in its
order, then the candidates it left out in the retriever's order (so a reply without a ranking
scores what the retriever found; ``workspace_ranking_rate`` counts replies with one). Numbers
outside the candidates are ignored.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from seebench.scoring.core import Score, ScoreContext
from seebench.suites.copilot.workspace.judging import (
    JACCARD_THRESHOLD,
    first_correct_rank,
    keyword_found,
)
from seebench.suites.copilot.workspace.options import OPTIONS  # noqa: F401  (its options)


def ranked_snippets(prediction: Any, candidates: Sequence[dict]) -> tuple[list[dict], bool | None]:
    """The prediction's snippets in rank order, and whether it held a ranking of candidates
    (``None``: it listed snippets itself)."""
    if "snippets" in prediction:
        snippets = prediction.get("snippets") or []
        return [s for s in snippets if isinstance(s, dict)], None
    ranking = [n for n in prediction.get("ranking") or [] if isinstance(n, int)]
    chosen = [n for n in ranking if 1 <= n <= len(candidates)]
    rest = [n for n in range(1, len(candidates) + 1) if n not in chosen]
    return [candidates[n - 1] for n in chosen + rest], bool(chosen)


class WorkspaceScorer:
    """Reciprocal ranks (overlap and line-Jaccard rules) and keyword detection per query."""

    def __init__(self, jaccard_threshold: float = JACCARD_THRESHOLD) -> None:
        self.threshold = float(jaccard_threshold)

    def identity(self) -> dict[str, Any]:
        return {"judge": "copilot_workspace/1", "jaccard_threshold": self.threshold}

    def score(self, sample: Any, prediction: Any, context: ScoreContext | None = None) -> Score:
        target = sample.target
        if target.get("excluded"):
            return Score(None, explanation=f"query excluded: {target['excluded']}")
        gold, candidates = target["gold"], target["candidates"]
        metadata: dict[str, Any] = {
            "gold_in_candidates": first_correct_rank(candidates, gold) is not None,
        }
        if not isinstance(prediction, dict):
            metadata.update(rr_jaccard=0.0, keyword_share=0.0, keywords_all=False)
            return Score(0.0, explanation="no answer", metadata=metadata)
        snippets, ranked = ranked_snippets(prediction, candidates)
        exact = first_correct_rank(snippets, gold, "overlap")
        jaccard = first_correct_rank(snippets, gold, "jaccard", self.threshold)
        answer = prediction.get("answer") or ""
        found = [keyword_found(answer, k) for k in target["keywords"]]
        metadata.update(
            rank_overlap=exact,
            rank_jaccard=jaccard,
            rr_jaccard=1.0 / jaccard if jaccard else 0.0,
            keyword_share=sum(found) / len(found),
            keywords_all=all(found),
            missing_keywords=[
                k[0] for k, ok in zip(target["keywords"], found, strict=True) if not ok
            ],
        )
        if ranked is not None:
            metadata["ranked"] = ranked
        return Score(1.0 / exact if exact else 0.0, metadata=metadata)

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        return [self.score(sample, prediction, context) for sample, prediction in items]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def _scored(scores: Sequence[Score]) -> list[Score]:
    return [s for s in scores if s.value is not None]


def workspace_mrr(scores: Sequence[Score]) -> float:
    """MRR under the exact rule (first snippet overlapping a gold range)."""
    return _mean([s.value for s in scores if s.value is not None])  # as _scored()


def workspace_mrr_jaccard(scores: Sequence[Score]) -> float:
    """MRR under the line-Jaccard rule."""
    return _mean([s.metadata.get("rr_jaccard", 0.0) for s in _scored(scores)])


def workspace_keyword_rate(scores: Sequence[Score]) -> float:
    """Share of answers containing every keyword of their query."""
    return _mean([float(bool(s.metadata.get("keywords_all"))) for s in _scored(scores)])


def workspace_keyword_recall(scores: Sequence[Score]) -> float:
    """Mean share of a query's keywords found in its answer."""
    return _mean([s.metadata.get("keyword_share", 0.0) for s in _scored(scores)])


def workspace_ranking_rate(scores: Sequence[Score]) -> float:
    """Share of prompted replies that ranked at least one candidate (NaN for other methods)."""
    return _mean([float(s.metadata["ranked"]) for s in _scored(scores) if "ranked" in s.metadata])


def workspace_candidate_recall(scores: Sequence[Score]) -> float:
    """Share of queries with a gold snippet among the prompt's candidates (the prompted
    model's ceiling)."""
    return _mean([float(s.metadata.get("gold_in_candidates", False)) for s in _scored(scores)])
