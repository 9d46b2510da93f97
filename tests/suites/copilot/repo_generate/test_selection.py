"""Items chosen from a baseline run's per-test coverage."""

from __future__ import annotations

from seebench.suites.copilot.repo_generate.methods import documented_methods
from seebench.suites.copilot.repo_generate.selection import (
    candidates,
    draw,
    is_source_path,
    order_repositories,
)
from tests.suites.copilot.repo_generate.support import MODULE, write_repo

T = "tests/test_toolkit.py::"


def coverage_map() -> dict[str, dict[int, frozenset[str]]]:
    """What coverage.py would record: definitions run at import (every test), bodies run by
    the tests that call them."""
    methods = {m.name: m for m in documented_methods(MODULE, "toolkit.py")}
    everyone = frozenset(T + n for n in ("test_count", "test_banner", "test_slug", "test_broken"))
    lines: dict[int, frozenset[str]] = {m.start_line: everyone for m in methods.values()}
    calls = {"Words.count": ["test_count"], "Words.banner": ["test_banner"],
             "slug": ["test_slug", "test_broken"]}  # fmt: skip
    for name, tests in calls.items():
        for line in range(methods[name].body_start, methods[name].body_end + 1):
            lines[line] = frozenset(T + t for t in tests)
    return {"toolkit.py": lines, "tests/test_toolkit.py": {1: everyone}}


def test_methods_whose_body_ran_in_a_passing_test_become_items(tmp_path):
    tree = write_repo(tmp_path)
    passing = frozenset(T + n for n in ("test_count", "test_banner", "test_slug"))
    items = candidates(tree, coverage_map(), passing, slug="s", repo="tiny/toolkit",
                       language="python")  # fmt: skip
    by_name = {i["name"]: i for i in items}
    assert sorted(by_name) == ["Words.banner", "Words.count", "slug"]  # not unused(): not run
    assert by_name["slug"]["tests"] == [T + "test_slug"]  # the failing test cannot judge
    assert by_name["Words.count"]["id"] == "tiny/toolkit:toolkit.py:Words.count"
    none_passing = candidates(
        tree, coverage_map(), frozenset(), slug="s", repo="r", language="python"
    )
    assert none_passing == []


def test_test_files_and_vendored_folders_hold_no_items():
    assert is_source_path("src/pkg/core.py")
    assert is_source_path("lib/response.js")
    for path in ("tests/test_x.py", "pkg/test_x.py", "conftest.py", "src/a.test.ts",
                 "node_modules/x/index.js", "docs/conf.py", "README.md", "types/a.d.ts"):  # fmt: skip
        assert not is_source_path(path), path


def test_draws_are_capped_seeded_and_ordered_for_a_small_first_repository():
    items = [
        {"slug": "a", "language": "python", "file": "m.py", "start_line": n} for n in range(30)
    ]
    first, again = draw(items, 10, seed=1), draw(items, 10, seed=1)
    assert first == again and len(first) == 10
    assert [i["start_line"] for i in first] == sorted(i["start_line"] for i in first)
    assert draw(items, 10, seed=2) != first
    groups = {
        "slow": [{"slug": "slow", "language": "python"}] * 5,
        "fast_but_few": [{"slug": "fast_but_few", "language": "python"}] * 2,
        "fast": [{"slug": "fast", "language": "python"}] * 3,
    }
    seconds = {"slow": 90.0, "fast_but_few": 1.0, "fast": 2.0}
    ordered = [i["slug"] for i in order_repositories(groups, seconds)]
    assert ordered[:3] == ["fast"] * 3 and ordered[3] == "slow"


def test_listing_drops_items_whose_tests_fail_when_run_alone(tmp_path):
    from types import SimpleNamespace

    from seebench.suites.copilot.repo_generate.listing import list_repository
    from seebench.suites.copilot.repos.types import RepoEnv, TestRun

    tree = write_repo(tmp_path)
    passing = frozenset(T + n for n in ("test_count", "test_banner", "test_slug"))
    env = RepoEnv("s", "tiny/toolkit", "0" * 40, "python", "ready", passing=passing)
    order_dependent = T + "test_banner"

    def run_tests(env, *, tests=None, coverage=False, timeout_s=None):
        if coverage:
            return TestRun("failed", {t: "passed" for t in passing}, coverage=coverage_map())
        return TestRun("failed", {t: "failed" if t == order_dependent else "passed" for t in tests})

    repo = SimpleNamespace(slug="s", repo="tiny/toolkit", language="python")
    listing = list_repository(repo, env, tree, run_tests, per_repo=10, seed=0, timeout_s=60)
    assert [i["name"] for i in listing.items] == ["Words.count", "slug"]
    assert listing.candidates == 3 and "1 item(s) dropped" in listing.note
