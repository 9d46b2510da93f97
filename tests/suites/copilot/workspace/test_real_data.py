"""The shipped query set against the staged repository tars of the data mirror
(``../shared/data`` beside the repository; skipped without it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.suites.copilot.repos.staging import StagedRepo, read_facts, source_tree
from seebench.suites.copilot.workspace.queries import check_gold, load_queries

MIRROR = Path(__file__).resolve().parents[4] / ".." / "shared" / "data" / "copilot_harness"


def test_every_gold_range_holds_in_its_staged_tree(tmp_path):
    if not (MIRROR / "repos").is_dir():
        pytest.skip("no ../shared/data/copilot_harness mirror")
    facts = read_facts()
    problems = []
    for query in load_queries():
        slug = f"{query.repo.replace('/', '+')}@{query.commit}"
        assert slug in facts, f"{query.id}: {slug} is not a staged repository"
        assert facts[slug]["whole_tree"] == "yes", f"{query.id}: {slug} is not a whole tree"
        repo = StagedRepo(
            query.repo,
            query.commit,
            facts[slug]["language"],
            True,
            MIRROR.resolve() / "repos" / f"{slug}.tar",
        )
        problems += check_gold(query, source_tree(repo, root=tmp_path))
    assert problems == []
