"""The staged repositories of the data mirror (``../shared/data`` beside the repository;
skipped without it): import, listing, and what an environment would be built from."""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.suites.copilot.repos import commands
from seebench.suites.copilot.repos.envs import NOT_BUILT, NOT_WHOLE, ensure_env, environment_kind
from seebench.suites.copilot.repos.node_env import read_package, script_settings
from seebench.suites.copilot.repos.staging import source_tree

MIRROR = Path(__file__).resolve().parents[4] / ".." / "shared" / "data"


@pytest.fixture
def repos():
    if not (MIRROR / "copilot_harness" / "repos").is_dir():
        pytest.skip("no ../shared/data/copilot_harness mirror")
    copied, cached = commands.import_repos(MIRROR.resolve())
    assert copied + cached == 76
    return {repo.slug: repo for repo in commands.staged_repositories()}


def test_every_staged_repository_is_listed_and_partial_trees_are_excluded(repos):
    assert len(repos) == 76
    # the MANIFEST marks 61 whole trees (its README says 63 and 13: 15 archives hold case files)
    assert sum(repo.whole_tree for repo in repos.values()) == 61
    partial = next(repo for repo in repos.values() if not repo.whole_tree)
    assert ensure_env(partial, build=False).reason == NOT_WHOLE


def test_environments_are_read_from_the_trees_manifests(repos):
    six = next(r for r in repos.values() if r.repo == "benjaminp/six")
    assert environment_kind(six, source_tree(six)) == "python"
    assert ensure_env(six, build=False).reason == NOT_BUILT
    generator = next(r for r in repos.values() if r.repo == "kefranabg/readme-md-generator")
    tree = source_tree(generator)
    assert environment_kind(generator, tree) == "node"
    assert script_settings(read_package(tree))["runner"] == "jest"
