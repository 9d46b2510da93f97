"""Choosing the items of repository-level generate from a measured baseline (§4.2.3).

A documented method (see :mod:`.methods`) of a repository's source file is an item when at
least one test that passed in the baseline run executed a line of its body (the coverage of
that run: file -> line -> test ids). Its covering tests are exactly those: a test that failed
at baseline cannot judge an answer, and the signature and docstring lines do not count (they
run when the module is imported). Test files themselves give no items.

Per repository at most ``per_repo`` items are drawn, seeded, so that a full run stays bounded.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.suites.copilot.repo_generate.items import file_digest
from seebench.suites.copilot.repo_generate.methods import documented_methods, grammar_for

#: paths of test files and helpers (never item sources)
TEST_PATH = re.compile(
    r"(^|/)(tests?|__tests__|spec|specs|testing|fixtures?)/|(^|/)(test_[^/]*|[^/]*_test\.py|"
    r"conftest\.py|[^/]*\.(test|spec)\.[cm]?[jt]sx?)$"
)
#: folders that hold no repository source (vendored, built or documentation code)
SKIPPED_DIRS = frozenset({"node_modules", "dist", "build", "docs", "doc", "examples", "example",
                          "benchmarks", "vendor", ".git"})  # fmt: skip


def is_source_path(path: str) -> bool:
    """Whether ``path`` (repository-relative) may hold items: Python/JS/TS, not a test file,
    not under a vendored, built or documentation folder."""
    parts = path.split("/")
    if grammar_for(path) is None or TEST_PATH.search(path):
        return False
    return not any(part in SKIPPED_DIRS for part in parts[:-1])


def covering_tests(
    lines: Mapping[int, Iterable[str]], first: int, last: int, passing: frozenset[str]
) -> list[str]:
    """The baseline-passing tests that executed a line in ``first..last`` (sorted)."""
    tests: set[str] = set()
    for line in range(first, last + 1):
        tests.update(t for t in lines.get(line, ()) if t in passing)
    return sorted(tests)


def candidates(
    tree: Path,
    coverage: Mapping[str, Mapping[int, Iterable[str]]],
    passing: frozenset[str],
    *,
    slug: str,
    repo: str,
    language: str,
) -> list[dict[str, Any]]:
    """Every item of one repository: documented methods of its covered source files whose
    body ran in a baseline-passing test (item records, see :mod:`.items`)."""
    items: list[dict[str, Any]] = []
    for path in sorted(coverage):
        if not is_source_path(path):
            continue
        file = tree / path
        try:
            source = safe_files.read_text(file, safe_files.TEXT_MAX_BYTES)
        except (OSError, UnicodeDecodeError):
            continue
        digest = file_digest(source)
        for method in documented_methods(source, path):
            tests = covering_tests(coverage[path], method.body_start, method.body_end, passing)
            if not tests:
                continue
            items.append(
                {
                    "id": f"{repo}:{path}:{method.name}",
                    "slug": slug,
                    "language": language,
                    "file": path,
                    "name": method.name,
                    "start_line": method.start_line,
                    "body_start": method.body_start,
                    "body_end": method.body_end,
                    "file_sha256": digest,
                    "tests": tests,
                }
            )
    return _unique_ids(items)


def _unique_ids(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Give methods that share a qualified name (overloads, property setters) distinct ids."""
    counts: dict[str, int] = {}
    for item in items:
        counts[item["id"]] = counts.get(item["id"], 0) + 1
    for item in items:
        if counts[item["id"]] > 1:
            item["id"] = f"{item['id']}@{item['start_line']}"
    return items


def draw(items: list[dict[str, Any]], per_repo: int, seed: int) -> list[dict[str, Any]]:
    """At most ``per_repo`` of one repository's items, drawn with ``seed`` (the same items
    for the same candidates), in file and line order."""
    if len(items) <= per_repo:
        chosen = list(items)
    else:
        chosen = random.Random(f"{seed}:{items[0]['slug']}").sample(items, per_repo)
    return sorted(chosen, key=lambda i: (i["file"], i["start_line"]))


def order_repositories(groups: dict[str, list[dict[str, Any]]], seconds: Mapping[str, float],
                       limit: int = 3) -> list[dict[str, Any]]:  # fmt: skip
    """All items, per language the repositories with at least ``limit`` items first, fastest
    baseline suite first (so that ``--limit 3`` needs one small repository per task)."""

    def rank(slug: str) -> tuple[str, bool, float, str]:
        items = groups[slug]
        return (items[0]["language"], len(items) < limit, seconds.get(slug, 0.0), slug)

    return [item for slug in sorted(groups, key=rank) for item in groups[slug]]
