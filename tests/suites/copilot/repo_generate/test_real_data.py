"""The shipped item list against the staged repositories of the data mirror (skips without
``../shared/data``): every item rebuilds from its file, and its original body put back in
place gives the file at the commit again."""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.suites.copilot.repo_generate.assembly import place_answer
from seebench.suites.copilot.repo_generate.items import ITEMS_FILE, item_row, read_items
from seebench.suites.copilot.repos.staging import StagedRepo, read_facts, source_tree

MIRROR = Path(__file__).resolve().parents[4] / ".." / "shared" / "data" / "copilot_harness"


@pytest.fixture(scope="module")
def trees(tmp_path_factory) -> dict[str, Path]:
    """slug -> the extracted tree of every repository the list names."""
    if not (MIRROR / "repos").is_dir():
        pytest.skip("no ../shared/data/copilot_harness mirror")
    facts = read_facts()
    root = tmp_path_factory.mktemp("trees")
    out = {}
    for slug in sorted({item["slug"] for item in read_items()}):
        row = facts[slug]
        repo = StagedRepo(row["repo"], row["commit"], row["language"], True,
                          (MIRROR / "repos" / f"{slug}.tar").resolve())  # fmt: skip
        out[slug] = source_tree(repo, root)
    return out


def test_every_listed_item_rebuilds_and_its_oracle_restores_the_file(trees):
    items = read_items()
    assert items, f"{ITEMS_FILE} is empty"
    facts = read_facts()
    for item in items:
        source = (trees[item["slug"]] / item["file"]).read_text(encoding="utf-8")
        row = item_row(item, source, facts[item["slug"]]["repo"], 12000)
        target = row["target"]
        assert target["excluded"] is None, (item["id"], target["excluded"])
        assert target["language"] == facts[item["slug"]]["language"]
        restored = place_answer(target, target["reference"])
        assert restored.source.splitlines() == source.splitlines(), item["id"]
        assert place_answer(target, target["placeholder"]).source == target["context"]


def test_each_language_starts_with_three_items_of_one_repository():
    items = read_items()
    for language in {item["language"] for item in items}:
        first = [item["slug"] for item in items if item["language"] == language][:3]
        assert len(set(first)) == 1, (language, first)
