"""Run a repository's test suite (or some of its tests) in the sandbox, network off.

Each run gets a private copy of the repository's tree (the extracted tar) with the caller's
``changes`` applied, plus seebench's harness files under ``.seebench/``; the environment
folder is mounted read-only at its host path. The runner's driver (pytest, jest, mocha...)
prints one JSON report after a marker line: exit status, per-test outcomes and, when asked,
the coverage map. See ``docs/tasks/copilot/repos.md``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path

from seebench.errors import SeebenchError
from seebench.sandbox import Limits, SandboxRequest, open_sandbox
from seebench.sandbox.types import check_file_name
from seebench.suites.copilot.repos.runners import runner_for
from seebench.suites.copilot.repos.staging import repos_dir
from seebench.suites.copilot.repos.types import RepoEnv, TestRun

MARKER = "\n@@SEEBENCH-REPORT@@\n"
HARNESS_DIR = ".seebench"
SUITE_TIMEOUT_S = 300.0
MEMORY_MB = 2048
OUTCOMES = ("passed", "failed", "error", "skipped")
_OWN_POOL_LOCK = threading.Lock()


def suite_limits(timeout_s: float | None = None) -> Limits:
    """Generous, bounded limits for one suite run (300 s, 2 GiB, 256 processes)."""
    seconds = float(timeout_s or SUITE_TIMEOUT_S)
    return Limits(
        cpu_s=seconds,
        wall_s=seconds,
        memory_mb=MEMORY_MB,
        address_space_mb=MEMORY_MB + 6144,  # runtimes reserve far more than they touch
        processes=256,
        file_size_mb=256,
        disk_mb=768,
        open_files=2048,
        output_bytes=64 * 1024 * 1024,
    )


def tree_of(env: RepoEnv) -> Path:
    """The extracted tree of ``env``'s repository (extracted when the env was built)."""
    tree = repos_dir() / "src" / env.slug
    if not (tree / ".seebench-extracted").is_file():
        raise SeebenchError(f"{env.slug}: the repository tree is not extracted ({tree})")
    return tree


def harness_files() -> dict[str, bytes]:
    """The harness files copied under ``.seebench/`` in every run."""
    folder = resources.files("seebench.suites.copilot.repos.harness")
    return {
        f"{HARNESS_DIR}/{entry.name}": entry.read_bytes()
        for entry in folder.iterdir()
        if entry.is_file() and entry.name != "__init__.py" and not entry.name.endswith(".pyc")
    }


def run_files(env: RepoEnv, changes: Mapping[str, str]) -> dict[str, bytes | str]:
    """The tree of ``env`` with ``changes`` applied, plus the harness files."""
    tree = tree_of(env)
    files: dict[str, bytes | str] = {}
    for path in sorted(tree.rglob("*")):
        if path.is_file() and not path.is_symlink() and path.name != ".seebench-extracted":
            files[path.relative_to(tree).as_posix()] = path.read_bytes()
    for name, text in changes.items():
        try:
            check_file_name(name)
        except ValueError as error:
            raise SeebenchError(f"{env.slug}: change {name!r}: {error}") from None
        if name.split("/", 1)[0] == HARNESS_DIR:
            raise SeebenchError(f"{env.slug}: change {name!r} is inside the harness folder")
        files[name] = text
    files.update(harness_files())
    return files


def open_repo_sandbox(envs: Sequence[RepoEnv], workers: int = 1, **options):
    """A sandbox whose workers see the environment folders of ``envs`` (read-only); pass it
    as ``sandbox=`` to :func:`run_tests` to reuse warm workers across many runs."""
    mounts = tuple(sorted({str(env.root) for env in envs if env.root is not None}))
    return open_sandbox(workers=workers, extra_mounts=mounts, **options)


def parse_report(stdout: str) -> dict | None:
    """The driver's JSON report after the marker, or ``None`` when there is none (the run
    was killed) or it is malformed."""
    head, marker, body = stdout.rpartition(MARKER)
    if not marker:
        return None
    try:
        report = json.loads(body)
    except ValueError:
        return None
    if not isinstance(report, dict) or not isinstance(report.get("outcomes"), dict):
        return None
    return report


def _coverage(report: dict) -> dict[str, dict[int, frozenset[str]]] | None:
    data = report.get("coverage")
    if not isinstance(data, dict):
        return None
    tests = data.get("tests", [])
    result: dict[str, dict[int, frozenset[str]]] = {}
    for name, lines in (data.get("files") or {}).items():
        result[name] = {
            int(line): frozenset(tests[i] for i in indices if 0 <= i < len(tests))
            for line, indices in lines.items()
        }
    return result


def run_tests(
    env: RepoEnv,
    *,
    changes: Mapping[str, str] | None = None,
    tests: Sequence[str] | None = None,
    coverage: bool = False,
    extra_env: Mapping[str, str] | None = None,
    timeout_s: float | None = None,
    sandbox=None,
) -> TestRun:
    """Run ``env``'s test suite (or only ``tests``: test ids or test file paths) on a copy
    of the tree with ``changes`` (path -> new text) applied, in the sandbox, network off.
    ``coverage`` fills ``TestRun.coverage`` (see the module docs of the runner)."""
    if env.root is None or env.status != "ready":
        raise SeebenchError(f"{env.slug}: the environment is {env.status}: {env.reason}")
    runner = runner_for(env.runner)
    settings = read_settings(env)
    limits = suite_limits(timeout_s)
    command, variables = runner.command(env, settings, list(tests or ()), coverage, limits)
    request = SandboxRequest(
        files=run_files(env, changes or {}),
        command=command,
        limits=limits,
        env={**variables, **dict(extra_env or {})},
    )
    if sandbox is None:
        # sandbox workers are named after the process: two pools open at once in one
        # process would share names (and cgroups), so runs without a pool take turns
        with _OWN_POOL_LOCK, open_repo_sandbox([env]) as box:
            result = box.run(request)
    else:
        result = sandbox.run(request)
    report = parse_report(result.stdout)
    if report is None:
        tail = (result.stdout[-3000:] + result.stderr[-3000:]).strip()
        verdict = "failed" if result.verdict == "passed" else result.verdict
        reason = result.reason or "the test driver printed no report"
        return TestRun(verdict, seconds=result.wall_s, output=tail, reason=reason)
    outcomes = {
        str(test): outcome for test, outcome in report["outcomes"].items() if outcome in OUTCOMES
    }
    failed = any(outcome in ("failed", "error") for outcome in outcomes.values())
    exit_code = report.get("exit")
    verdict = "passed" if exit_code == 0 and not failed else "failed"
    if report.get("timed_out"):
        verdict = "timeout"
    reason = "" if verdict == "passed" else runner.failure_reason(report, outcomes)
    return TestRun(
        verdict,
        outcomes=outcomes,
        seconds=result.wall_s,
        output=str(report.get("tail", ""))[-6000:],
        coverage=_coverage(report) if coverage else None,
        reason=reason,
    )


_settings_cache: dict[tuple[str, float], dict] = {}


def read_settings(env: RepoEnv) -> dict:
    """The runner settings stored in ``env``'s record (``record.json`` in its folder)."""
    path = Path(env.root) / "record.json"
    try:
        key = (str(path), path.stat().st_mtime)
    except OSError:
        raise SeebenchError(f"{env.slug}: no environment record at {path}") from None
    if key not in _settings_cache:
        try:
            settings = json.loads(path.read_text(encoding="utf-8")).get("settings", {})
        except (OSError, ValueError, AttributeError) as error:
            raise SeebenchError(f"{path}: unreadable environment record: {error}") from None
        if not isinstance(settings, dict):
            raise SeebenchError(f"{path}: 'settings' must be a mapping")
        _settings_cache[key] = settings
    return _settings_cache[key]
