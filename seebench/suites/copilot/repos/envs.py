"""Repository environments: built once per (repository, commit, manifests), cached on disk.

``ensure_env(repo)`` returns the :class:`RepoEnv` of a staged repository: from its record in
``repos_dir()/envs/<slug>-<key>/record.json`` when one is there and valid, else (with
``build=True``) by building it (:mod:`.python_env` or :mod:`.node_env`, in the build jail
with network) and running the whole test suite once in the sandbox (network off) to record
which tests pass. A file lock per repository makes concurrent callers build it once.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.suites.copilot.repos import node_env, python_env
from seebench.suites.copilot.repos.build_jail import jail_available
from seebench.suites.copilot.repos.staging import StagedRepo, repos_dir, source_tree, tree_digest
from seebench.suites.copilot.repos.types import RepoEnv, TestRun

OUTCOMES = ("passed", "failed", "error", "skipped")

#: bumped when the build recipe changes, so every cached environment is rebuilt
RECIPE_VERSION = "1"
RECORD_FORMAT = 1
NOT_BUILT = "not built: run seebench copilot envs --build"
NOT_WHOLE = "only the cases' files are staged"
STATUSES = ("ready", "failed", "excluded")
BASELINE_UNFINISHED = "the baseline test run did not finish (interrupted)"


def envs_dir() -> Path:
    """``repos_dir()/envs``: one folder per built environment, plus the locks."""
    return repos_dir() / "envs"


def environment_kind(repo: StagedRepo, tree: Path) -> str | None:
    """``python`` or ``node`` from the tree's manifests and the repository's language."""
    if repo.language == "python" and python_env.has_manifest(tree):
        return "python"
    if repo.language in ("javascript", "typescript") and (tree / "package.json").is_file():
        return "node"
    return None


def manifest_sha256(kind: str, tree: Path) -> str:
    """The hash of the files that decide the environment, with the recipe version."""
    module = python_env if kind == "python" else node_env
    return tree_digest(module.manifest_files(tree)) + f"-r{RECIPE_VERSION}"


def env_folder(repo: StagedRepo, manifest: str) -> Path:
    return envs_dir() / f"{repo.slug}-{manifest[:16]}"


@contextmanager
def repo_lock(repo: StagedRepo) -> Iterator[None]:
    """An exclusive lock on ``repo``'s environment (across processes)."""
    locks = envs_dir() / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    fd = safe_files.open_lock_file(locks / f"{repo.slug}.lock")  # never through a link
    with os.fdopen(fd, "r+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _base(repo: StagedRepo, **fields) -> RepoEnv:
    return RepoEnv(
        slug=repo.slug, repo=repo.repo, commit=repo.commit, language=repo.language, **fields
    )


def record_to_json(env: RepoEnv, settings: dict) -> dict:
    """The JSON form of a record (sorted test lists, the root as a string)."""
    data = asdict(env)
    data["root"] = str(env.root) if env.root else None
    data["passing"] = sorted(env.passing)
    data["failing"] = sorted(env.failing)
    return {"format": RECORD_FORMAT, "env": data, "settings": settings}


def read_record(path: Path, repo: StagedRepo, manifest: str) -> RepoEnv | str:
    """The environment recorded in ``path``, or one line saying why the record is rejected
    (unreadable, another repository or manifest, a field of the wrong type). The
    environment's root is the record's folder, whatever the record says."""
    try:
        data = json.loads(safe_files.read_text(path, safe_files.TEXT_MAX_BYTES))
    except (OSError, ValueError, RecursionError) as error:
        return f"{path}: unreadable environment record: {error}"
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        return f"{path}: not an environment record of format {RECORD_FORMAT}"
    env, settings = data.get("env"), data.get("settings")
    if not isinstance(env, dict) or not isinstance(settings, dict):
        return f"{path}: 'env' and 'settings' must be mappings"
    expected = {"slug": repo.slug, "repo": repo.repo, "commit": repo.commit}
    for key, value in {**expected, "manifest_sha256": manifest}.items():
        if env.get(key) != value:
            return f"{path}: {key} is {env.get(key)!r}, expected {value!r}"
    if env.get("status") not in STATUSES:
        return f"{path}: bad status {env.get('status')!r}"
    for key in ("passing", "failing"):
        items = env.get(key)
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            return f"{path}: {key} must be a list of test ids"
    for key in ("build_seconds", "suite_seconds"):
        if not isinstance(env.get(key), int | float) or env[key] < 0:
            return f"{path}: {key} must be a non-negative number"
    for key in ("reason", "runner", "language"):
        if not isinstance(env.get(key), str):
            return f"{path}: {key} must be a string"
    # the root is where the record is (a copied SEEBENCH_HOME keeps its environments)
    return _base(
        repo,
        status=env["status"],
        reason=env["reason"],
        runner=env["runner"],
        root=path.parent,
        build_seconds=float(env["build_seconds"]),
        suite_seconds=float(env["suite_seconds"]),
        passing=frozenset(env["passing"]),
        failing=frozenset(env["failing"]),
        manifest_sha256=manifest,
    )


def write_record(env: RepoEnv, settings: dict) -> None:
    """Write ``env``'s record atomically into its folder."""
    assert env.root is not None
    fd, tmp = tempfile.mkstemp(prefix=".record.", dir=env.root)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(record_to_json(env, settings), handle, indent=1)
    os.replace(tmp, Path(env.root) / "record.json")


def ensure_env(repo: StagedRepo, *, build: bool = True, retry_failed: bool = False) -> RepoEnv:
    """The environment of ``repo``: cached, or built now (``build=True``), or
    ``excluded`` with the reason (not a whole tree; no manifest; not built).
    ``retry_failed`` (with ``build``) builds again an environment recorded as failed."""
    if not repo.whole_tree:
        return _base(repo, status="excluded", reason=NOT_WHOLE)
    tree = source_tree(repo)
    kind = environment_kind(repo, tree)
    if kind is None:
        return _base(repo, status="excluded", reason=f"no {repo.language} manifest in the tree")
    manifest = manifest_sha256(kind, tree)
    folder = env_folder(repo, manifest)
    record = folder / "record.json"
    if record.is_file():
        cached = read_record(record, repo, manifest)
        if isinstance(cached, RepoEnv) and not (
            retry_failed and build and cached.status == "failed"
        ):
            return cached
        if not build:
            return _base(repo, status="excluded", reason=f"{NOT_BUILT} ({cached})")
    if not build:
        return _base(repo, status="excluded", reason=NOT_BUILT, manifest_sha256=manifest)
    with repo_lock(repo):
        if record.is_file():  # another process may have built it meanwhile
            cached = read_record(record, repo, manifest)
            if isinstance(cached, RepoEnv) and not (retry_failed and cached.status == "failed"):
                return cached
        return _build(repo, tree, kind, manifest, folder)


def _build(repo: StagedRepo, tree: Path, kind: str, manifest: str, folder: Path) -> RepoEnv:
    from seebench.suites.copilot.repos.testrun import run_tests

    problem = jail_available()
    if problem:  # not recorded: the next call on a host with a jail builds it
        return _base(repo, status="failed", reason=problem, manifest_sha256=manifest)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    started = time.monotonic()
    module = python_env if kind == "python" else node_env
    try:
        if kind == "python":
            settings, reason = python_env.build_python_env(
                tree, folder, repos_dir() / "cache" / "uv", repo.commit_time()
            )
        else:
            settings, reason = node_env.build_node_env(
                tree, folder, repos_dir() / "cache" / "npm", repo.commit_time()
            )
    except (OSError, SeebenchError) as error:
        settings, reason = {}, f"build error: {error}"
    built = _base(
        repo,
        status="failed" if reason else "ready",
        reason=reason,
        runner=settings.get("runner", module.DEFAULT_RUNNER),
        root=folder,
        build_seconds=round(time.monotonic() - started, 1),
        manifest_sha256=manifest,
    )
    if reason:
        write_record(built, settings)
        return built
    # until the baseline has run, the record says so (a build killed meanwhile is not ready)
    write_record(replace(built, status="failed", reason=BASELINE_UNFINISHED), settings)
    runs = [run_tests(built, timeout_s=BASELINE_TIMEOUT_S)]
    # more runs only while some test passes in every run so far: they tell flaky tests apart
    while len(runs) < BASELINE_RUNS and baseline_verdict(runs).passing:
        runs.append(run_tests(built, timeout_s=BASELINE_TIMEOUT_S))
    unavailable = [run for run in runs if run.verdict == "sandbox_unavailable"]
    if unavailable:
        shutil.rmtree(folder, ignore_errors=True)  # not the repository's fault: not cached
        return replace(
            built, status="failed", reason=f"sandbox unavailable: {unavailable[0].reason}"
        )
    verdict = baseline_verdict(runs)
    settings = {**settings, "baseline": verdict.summary}
    env = replace(
        built,
        suite_seconds=round(max(run.seconds for run in runs), 1),
        passing=verdict.passing,
        failing=verdict.failing,
    )
    if verdict.reason:
        env = replace(env, status="failed", reason=verdict.reason)
    write_record(env, settings)
    return env


#: how many times the baseline suite runs (when the first run passes any test)
BASELINE_RUNS = 2
#: wall seconds of one baseline run: twice a scoring run's, so a slow suite (harelba/q runs
#: its program 228 times: 262 s on a loaded machine) finishes instead of being cut at a point
#: that depends on the machine's load
BASELINE_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class BaselineVerdict:
    """The usable tests of an environment, from the per-test outcomes of its baseline runs.

    ``passing``: the tests that passed in every run (the usable set); ``failing``: those
    that failed or errored in any run; ``flaky``: those that passed in one run and not in
    another (neither usable nor counted as failing); ``reason``: empty when some test is
    usable (the environment is ready), else why not. The runner's exit status plays no
    part: a suite with failing tests is ready with its passing ones, so the verdict of a
    repository depends only on which of its tests pass reliably.
    """

    passing: frozenset[str]
    failing: frozenset[str]
    flaky: frozenset[str]
    reason: str
    summary: dict


def baseline_verdict(runs: list[TestRun]) -> BaselineVerdict:
    """The :class:`BaselineVerdict` of one or more baseline runs of the same suite."""
    if not runs:
        raise ValueError("baseline_verdict needs at least one run")
    passed_each = [{t for t, o in run.outcomes.items() if o == "passed"} for run in runs]
    passing = frozenset(set.intersection(*passed_each))
    failing = frozenset(
        t for run in runs for t, o in run.outcomes.items() if o in ("failed", "error")
    )
    flaky = frozenset(set.union(*passed_each) - passing - failing)
    counts = {
        outcome: sum(1 for o in runs[0].outcomes.values() if o == outcome) for outcome in OUTCOMES
    }
    summary = {
        "runs": len(runs),
        "passing": len(passing),
        "failing": len(failing),
        "flaky": len(set.union(*passed_each) - passing),
        "first_run": counts,
        "verdicts": [run.verdict for run in runs],
        "exits": [run.exit for run in runs],  # the runner's exit status (None: no report)
    }
    reason = ""
    if not passing:
        if any(passed_each):
            reason = (
                f"no test passes reliably offline ({summary['flaky']} passed in some runs only)"
            )
        else:
            why = runs[0].reason or "no test ran"
            if not runs[0].outcomes:
                why += "; the runner reported no per-test outcome"
            reason = f"no test passes offline ({why})"
    return BaselineVerdict(passing, failing, flaky, reason, summary)


def describe(env: RepoEnv) -> dict:
    """One row of the environments table (JSON-ready)."""
    return {
        "repository": env.repo,
        "slug": env.slug,
        "language": env.language,
        "status": env.status,
        "runner": env.runner,
        "passing": len(env.passing),
        "failing": len(env.failing),
        "build_s": env.build_seconds,
        "suite_s": env.suite_seconds,
        "reason": env.reason,
    }
