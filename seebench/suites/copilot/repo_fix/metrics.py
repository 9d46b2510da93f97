"""Metrics over the ``copilot_repo_fix`` scorer's per-sample verdicts (unscored samples left
out): the repository-level and file-level fix rates, and how often the two rules disagree."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from seebench.scoring.core import Score


def _share(scores: Sequence[Score], test: Callable[[dict], bool | None]) -> float:
    values = [test(s.metadata) for s in scores if s.value is not None]
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept) if kept else math.nan


def repo_fix_rate(scores: Sequence[Score]) -> float:
    """The paper's rule over the repository: parses and strictly fewer warnings in it."""
    return _share(scores, lambda m: m.get("repo_fixed"))


def repo_fix_file_rate(scores: Sequence[Score]) -> float:
    """Part 1's rule on the same edits: parses and strictly fewer warnings on the file alone."""
    return _share(scores, lambda m: m.get("fixed"))


def repo_fix_disagreement_rate(scores: Sequence[Score]) -> float:
    """Share of edits on which the file-level and repository-level rules disagree."""
    return _share(scores, lambda m: _disagree(m, ("file_only", "repo_only")))


def repo_fix_file_only_rate(scores: Sequence[Score]) -> float:
    """Share of edits fixed on the file alone but not over the repository."""
    return _share(scores, lambda m: _disagree(m, ("file_only",)))


def repo_fix_repo_only_rate(scores: Sequence[Score]) -> float:
    """Share of edits fixed over the repository but not on the file alone."""
    return _share(scores, lambda m: _disagree(m, ("repo_only",)))


def repo_fix_target_rate(scores: Sequence[Score]) -> float:
    """Among items whose warning the unchanged repository reports: parses and no warning of
    the case's rule at the target's place in the repository run."""
    return _share(scores, lambda m: m.get("repo_target_fixed"))


def repo_fix_syntax_rate(scores: Sequence[Score]) -> float:
    """Share of edited files that parse (tree-sitter)."""
    return _share(scores, lambda m: m.get("syntax_ok"))


def repo_fix_new_warning_rate(scores: Sequence[Score]) -> float:
    """Share of edits that bring a warning anywhere in the repository that was not there."""
    return _share(scores, lambda m: m.get("repo_new_warnings"))


def repo_fix_suppressed_rate(scores: Sequence[Score]) -> float:
    """Share of edits that add an analyzer directive instead of fixing (verdict tampered)."""
    return _share(scores, lambda m: m.get("suppressed"))


def repo_fix_reproduced_rate(scores: Sequence[Score]) -> float:
    """Share of items whose warning is also reported in the unchanged repository."""
    return _share(scores, lambda m: m.get("repo_target_reproduced"))


def _disagree(metadata: dict, kinds: tuple[str, ...]) -> bool | None:
    kind = metadata.get("disagreement")
    return None if kind is None else kind in kinds
