"""The workspace rules: when a retrieved snippet hits a gold range, and whether an answer
contains a keyword.

- **overlap** (the exact rule): a snippet is correct when it is in a gold snippet's file and
  shares at least one line with the gold range; the query's reciprocal rank is 1/r for the
  first correct snippet at rank r (0 when none of the list is correct).
- **jaccard** (the public harness's line-based variant): a snippet is correct when the
  Jaccard index of its set of lines and a gold range's set of lines (same file) is at least
  ``threshold`` (0.5 by default); the reciprocal rank is taken the same way.
- **keywords**: answer and keyword are normalised alike (lower case, identifiers split at
  ``snake_case`` / ``camelCase`` / punctuation boundaries, whitespace collapsed); a keyword is
  found when its normalised words occur as consecutive whole words of the answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from seebench.suites.copilot.workspace.retrieval import code_tokens

#: the default Jaccard threshold of the line-based rule
JACCARD_THRESHOLD = 0.5


def _span(snippet: Mapping[str, Any]) -> tuple[str, int, int]:
    return str(snippet["file"]), int(snippet["start"]), int(snippet["end"])


def overlaps(snippet: Mapping[str, Any], gold: Mapping[str, Any]) -> bool:
    """Same file and at least one shared line."""
    file, start, end = _span(snippet)
    gold_file, gold_start, gold_end = _span(gold)
    return file == gold_file and start <= gold_end and gold_start <= end


def line_jaccard(snippet: Mapping[str, Any], gold: Mapping[str, Any]) -> float:
    """|shared lines| / |lines of either| for two ranges of the same file (0 otherwise)."""
    file, start, end = _span(snippet)
    gold_file, gold_start, gold_end = _span(gold)
    if file != gold_file:
        return 0.0
    shared = max(0, min(end, gold_end) - max(start, gold_start) + 1)
    union = (end - start + 1) + (gold_end - gold_start + 1) - shared
    return shared / union if union else 0.0


def first_correct_rank(
    snippets: Sequence[Mapping[str, Any]],
    gold: Sequence[Mapping[str, Any]],
    rule: str = "overlap",
    threshold: float = JACCARD_THRESHOLD,
) -> int | None:
    """The 1-based rank of the first snippet that is correct under ``rule``; None if none."""
    for rank, snippet in enumerate(snippets, 1):
        if rule == "overlap":
            hit = any(overlaps(snippet, g) for g in gold)
        elif rule == "jaccard":
            hit = any(line_jaccard(snippet, g) >= threshold for g in gold)
        else:
            raise ValueError(f"unknown rule {rule!r} (overlap, jaccard)")
        if hit:
            return rank
    return None


def normalise(text: str) -> str:
    """Lower-cased words with identifiers split, joined by single spaces."""
    return " ".join(code_tokens(text))


def keyword_found(answer: str, spellings: Sequence[str]) -> bool:
    """Whether any spelling of a keyword occurs in ``answer`` (normalised, whole words)."""
    padded = f" {normalise(answer)} "
    return any((words := normalise(spelling)) and f" {words} " in padded for spelling in spellings)
