"""The repository environments this scenario runs tests in (repo-envs' API, looked up late so
that a test can pass a stand-in with the same functions), and a case's staged repository."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seebench.suites.copilot.repos.staging import StagedRepo, read_facts


@dataclass(frozen=True)
class Backend:
    """``ensure_env(repo, build=...)``, ``run_tests(env, ...)`` and
    ``open_repo_sandbox(envs, workers=...)`` (see :mod:`seebench.suites.copilot.repos`)."""

    ensure_env: Any
    run_tests: Any
    open_repo_sandbox: Any


def default_backend() -> Backend:
    """repo-envs' functions (``repos.envs`` and ``repos.testrun``)."""
    envs = importlib.import_module("seebench.suites.copilot.repos.envs")
    testrun = importlib.import_module("seebench.suites.copilot.repos.testrun")
    opener = getattr(envs, "open_repo_sandbox", None) or testrun.open_repo_sandbox
    return Backend(envs.ensure_env, testrun.run_tests, opener)


def staged_repo(target: dict[str, Any]) -> tuple[StagedRepo | None, str]:
    """(the case's staged repository, "") or (None, why it cannot be had here)."""
    from seebench.data.cache import cached_file

    if target.get("unavailable"):
        return None, f"focal file unavailable: {target['unavailable']}"
    slug = f"{target['repo'].replace('/', '+')}@{target['commit']}"
    row = read_facts().get(slug)
    if row is None:
        return None, f"repository {slug} is not staged"
    tar = cached_file(target["tar_sha256"]) if target.get("tar_sha256") else None
    if tar is None:
        return None, f"archive of {slug} is not in the data cache (run seebench data import)"
    repo = StagedRepo(
        repo=row["repo"],
        commit=row["commit"],
        language=row["language"],
        whole_tree=row["whole_tree"] == "yes",
        tar=Path(tar),
    )
    return repo, ""
