"""Writing the versioned item list from measured environments (used by
``scripts/copilot_repo_generate_items.py``).

For each staged repository whose environment is ready: one run of its whole suite with
per-test coverage; the items are the documented methods whose body ran in a test that passed
both in the environment's baseline run and in this run (a flaky test judges nothing), at most
``per_repo`` of them, seeded; then each item's covering tests are run alone on the unchanged
tree, and an item is dropped when they do not all pass there (order-dependent tests). Lists of other repositories already in the file are kept, so
the list can be grown one repository at a time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.suites.copilot.repo_generate.items import ITEM_KEYS, read_items
from seebench.suites.copilot.repo_generate.selection import candidates, draw, order_repositories


@dataclass
class RepositoryListing:
    """The outcome for one repository: its chosen items, how many candidates there were,
    and why there are none (empty when there are)."""

    slug: str
    items: list[dict[str, Any]] = field(default_factory=list)
    candidates: int = 0
    note: str = ""
    suite_seconds: float = 0.0


def list_repository(
    repo: Any,
    env: Any,
    tree: Path,
    run_tests: Callable[..., Any],
    *,
    per_repo: int,
    seed: int,
    timeout_s: float,
    verify: bool = True,
) -> RepositoryListing:
    """The items of one repository (``env`` from ``ensure_env``, ``run_tests`` repo-envs');
    with ``verify`` each drawn item's covering tests are run alone on the unchanged tree and
    the item is dropped when one of them fails."""
    listing = RepositoryListing(repo.slug, suite_seconds=float(env.suite_seconds or 0.0))
    if env.status != "ready":
        listing.note = f"environment {env.status}: {env.reason}"
        return listing
    run = run_tests(env, coverage=True, timeout_s=timeout_s)
    if not run.coverage:
        listing.note = f"no coverage from the suite run ({run.verdict}: {run.reason})"[:300]
        return listing
    passing = frozenset(t for t in env.passing if run.passed(t))
    found = candidates(
        tree, run.coverage, passing, slug=repo.slug, repo=repo.repo, language=repo.language
    )
    listing.candidates = len(found)
    listing.items = draw(found, per_repo, seed)
    if not found:
        listing.note = "no documented method is covered by a passing test"
    if verify:
        kept = [i for i in listing.items if reproduces(env, i, run_tests, timeout_s)]
        if len(kept) < len(listing.items):
            listing.note = (
                f"{len(listing.items) - len(kept)} item(s) dropped: covering tests fail alone"
            )
        listing.items = kept
    return listing


def reproduces(
    env: Any, item: dict[str, Any], run_tests: Callable[..., Any], timeout_s: float
) -> bool:
    """Whether the item's covering tests, run alone on the unchanged tree, all pass (a test
    that passes only after other tests of the suite cannot judge an answer)."""
    run = run_tests(env, tests=list(item["tests"]), timeout_s=timeout_s)
    return all(run.passed(test) for test in item["tests"])


def merged_list(
    existing: Iterable[dict[str, Any]],
    listings: Iterable[RepositoryListing],
    seconds: dict[str, float],
) -> list[dict[str, Any]]:
    """The new list: existing items of repositories not listed again, plus the new ones,
    ordered so that each language's first three items come from one fast repository."""
    listings = list(listings)
    redone = {listing.slug for listing in listings}
    groups: dict[str, list[dict[str, Any]]] = {}
    for item in existing:
        if item["slug"] not in redone:
            groups.setdefault(item["slug"], []).append(item)
    for listing in listings:
        if listing.items:
            groups[listing.slug] = listing.items
        seconds[listing.slug] = listing.suite_seconds
    return order_repositories(groups, seconds)


def write_list(path: Path, items: list[dict[str, Any]]) -> None:
    """Write the list (keys in the documented order, one item a line) and read it back."""
    lines = [
        json.dumps({key: item[key] for key in ITEM_KEYS}, ensure_ascii=False) for item in items
    ]
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    read_items(tmp)  # what is shipped must pass the reader's checks
    tmp.replace(path)


def pin_tasks(task_files: Iterable[Path], digest: str) -> list[Path]:
    """Set the ``items_sha256`` option of the tasks reading the list to ``digest``; the
    files changed."""
    import re

    changed = []
    for path in task_files:
        text = path.read_text(encoding="utf-8")
        new = re.sub(r"(items_sha256: )[0-9a-f]{64}", rf"\g<1>{digest}", text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed
