"""Write the item list of repository-level generate from measured environments.

    python scripts/copilot_repo_generate_items.py [--repos PATTERN] [--per-repo 10] [--seed 0]

Needs the staged repositories in the data cache (``seebench data import ../shared/data``) and
their environments built (``seebench copilot envs --build --repos ...``); runs each ready
repository's suite once with per-test coverage in the sandbox. Items of repositories not
matched by ``--repos`` stay in the list. See docs/tasks/copilot/repo_generate.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from seebench.suites.copilot.repo_generate.items import ITEMS_FILE, list_digest, read_items
from seebench.suites.copilot.repo_generate.listing import (
    list_repository,
    merged_list,
    pin_tasks,
    write_list,
)
from seebench.suites.copilot.repos.commands import select_repos, staged_repositories
from seebench.suites.copilot.repos.envs import ensure_env
from seebench.suites.copilot.repos.staging import source_tree
from seebench.suites.copilot.repos.testrun import run_tests


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", help="only repositories matching this glob or text")
    parser.add_argument("--per-repo", type=int, default=10, help="items per repository (10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the draw (0)")
    parser.add_argument("--timeout", type=float, default=900, help="suite run limit, seconds")
    parser.add_argument("--out", type=Path, default=ITEMS_FILE, help="the list to update")
    parser.add_argument(
        "--no-verify", action="store_true", help="skip running each item's tests alone"
    )
    args = parser.parse_args(argv)
    repos = select_repos(staged_repositories(), args.repos, None)
    existing = read_items(args.out) if args.out.is_file() and args.out.stat().st_size else []
    seconds = {}
    for item in existing:
        repo = next((r for r in staged_repositories() if r.slug == item["slug"]), None)
        if repo is not None and item["slug"] not in seconds:
            seconds[item["slug"]] = ensure_env(repo, build=False).suite_seconds
    listings = []
    for repo in repos:
        if not repo.whole_tree:
            continue
        env = ensure_env(repo, build=False)
        listing = list_repository(
            repo, env, source_tree(repo), run_tests,
            per_repo=args.per_repo, seed=args.seed, timeout_s=args.timeout,
            verify=not args.no_verify,
        )  # fmt: skip
        listings.append(listing)
        print(f"{repo.repo:40} {repo.language:11} {listing.candidates:4} candidates "
              f"{len(listing.items):3} items  {listing.note}", flush=True)  # fmt: skip
    items = merged_list(existing, listings, seconds)
    write_list(args.out, items)
    print(f"{len(items)} items from {len({i['slug'] for i in items})} repositories -> {args.out}")
    if args.out.resolve() == ITEMS_FILE:
        tasks = sorted(ITEMS_FILE.parents[1].glob("copilot_repo_generate_*.yaml"))
        for path in pin_tasks(tasks, list_digest(ITEMS_FILE)):
            print(f"items_sha256 updated in {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
