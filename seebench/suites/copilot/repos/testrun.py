"""Run a repository's test suite (or some of its tests) in the sandbox, network off.

Each run gets a private copy of the repository's tree (the extracted tar) with the caller's
``changes`` applied, plus seebench's harness files under ``.seebench/``; the environment
folder is mounted read-only at its host path. The runner's driver (pytest, jest, mocha...)
prints one JSON report after a marker line: exit status, per-test outcomes and, when asked,
the coverage map. See ``docs/tasks/copilot/repos.md``.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection, Mapping, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.sandbox import Limits, SandboxRequest, open_sandbox
from seebench.sandbox.types import check_file_name
from seebench.suites.copilot.repos.baseline_rule import judge_by_baseline
from seebench.suites.copilot.repos.integrity import TAMPERED, refused_changes, tampered_reason
from seebench.suites.copilot.repos.runners import runner_for
from seebench.suites.copilot.repos.staging import repos_dir
from seebench.suites.copilot.repos.types import RepoEnv, TestRun

MARKER = "\n@@SEEBENCH-REPORT@@\n"
HARNESS_DIR = ".seebench"
SUITE_TIMEOUT_S = 300.0
MEMORY_MB = 2048
OUTCOMES = ("passed", "failed", "error", "skipped")


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


@lru_cache(maxsize=8)
def _tree_files(tree: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for path in sorted(tree.rglob("*")):
        if path.is_file() and not path.is_symlink() and path.name != ".seebench-extracted":
            files[path.relative_to(tree).as_posix()] = safe_files.read_bytes(path, follow=False)
    return files


def run_files(env: RepoEnv, changes: Mapping[str, str]) -> dict[str, bytes | str]:
    """The tree of ``env`` with ``changes`` applied, plus the harness files."""
    files: dict[str, bytes | str] = dict(_tree_files(tree_of(env)))  # read once per process
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
    answer_tests: Collection[str] = (),
    trusted_changes: Mapping[str, str] | None = None,
) -> TestRun:
    """Run ``env``'s test suite (or only ``tests``: test ids or test file paths) on a copy
    of the tree with ``changes`` (path -> new text: the change under test) applied, in the
    sandbox, network off. ``coverage`` fills ``TestRun.coverage`` (see the module docs of
    the runner).

    A change that touches the test infrastructure or the tests being run is refused without
    running (verdict ``tampered``); ``answer_tests`` are the test files the change may add
    (a test-generation answer) and ``trusted_changes`` seebench's own edits (never checked).
    A runner that is not tamper-evident (it runs whole files) passes a run whose only
    failures are ``env``'s baseline failures (:mod:`.baseline_rule`); pytest runs must pass.
    """
    if env.root is None or env.status != "ready":
        raise SeebenchError(f"{env.slug}: the environment is {env.status}: {env.reason}")
    changes = dict(changes or {})
    refused = refused_changes(changes, list(tests or ()), answer_tests)
    if refused:
        return TestRun(TAMPERED, reason=tampered_reason(refused))
    runner = runner_for(env.runner)
    limits = suite_limits(timeout_s)
    command, variables = runner.command(
        env, read_settings(env), list(tests or ()), coverage, limits, changed=sorted(changes)
    )
    nonce = secrets.token_hex(16)
    request = SandboxRequest(
        files=run_files(env, {**changes, **dict(trusted_changes or {})}),
        command=command,
        limits=limits,
        env={**variables, **dict(extra_env or {})},
        stdin=nonce.encode("ascii"),
    )
    if sandbox is None:
        with open_repo_sandbox([env]) as box:
            result = box.run(request)
    else:
        result = sandbox.run(request)
    return judge_by_baseline(judge_run(result, runner, nonce, coverage), env, runner, tests or ())


def judge_run(result, runner, nonce: str, coverage: bool) -> TestRun:
    """The :class:`TestRun` of one sandbox run of a runner's driver."""
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
    problem = report_problem(report, result, nonce) if runner.tamper_evident else None
    if problem is not None and problem[0] == TAMPERED:
        verdict = TAMPERED
    elif report.get("timed_out"):
        verdict = "timeout"
    elif report.get("exit") == 0 and not failed and problem is None:
        verdict = "passed"
    else:
        verdict = "failed"
    if verdict == "passed":
        reason = ""
    else:
        reason = problem[1] if problem is not None else runner.failure_reason(report, outcomes)
    return TestRun(
        verdict,
        outcomes=outcomes,
        seconds=result.wall_s,
        output=str(report.get("tail", ""))[-6000:],
        coverage=_coverage(report) if coverage else None,
        reason=reason,
        exit=_exit_status(report),
    )


def _exit_status(report: dict) -> int | None:
    status = report.get("exit")
    return status if isinstance(status, int) and not isinstance(status, bool) else None


def report_problem(report: dict, result, nonce: str) -> tuple[str, str] | None:
    """Why a tamper-evident driver's report cannot be taken as it stands, as (verdict, one
    line): ``tampered`` when the report is not the driver's (no nonce, the driver did not
    exit cleanly after it), a plugin came from the change or from a file made during the
    run, or pytest's own functions were replaced during a run with a change; ``failed`` when pytest's own end of session is missing or disagrees with the exit
    status of the process (``os._exit`` from a test or at exit). ``None``: it holds."""
    if report.get("nonce") != nonce or result.exit_code != 0 or result.signal is not None:
        return TAMPERED, "the test report is not the driver's (nonce or driver exit status)"
    foreign = report.get("foreign") or []
    if foreign:
        return TAMPERED, f"a pytest plugin came from the change or the run: {foreign[0]}"
    patched = report.get("patched") or []
    if patched:
        return TAMPERED, f"pytest's own code was replaced during the run: {patched[0]}"
    if report.get("timed_out"):
        return None
    if not report.get("ended"):
        why = "outcomes after the end of the session" if report.get("late_outcomes") else ""
        why = why or "pytest's end of session never arrived"
        return "failed", f"{why} (exit status {report.get('exit')})"
    if report.get("session_exit") != report.get("exit"):
        return "failed", (
            f"pytest ended with status {report.get('session_exit')} but the process "
            f"exited with {report.get('exit')}"
        )
    return None


_settings_cache: dict[tuple[str, float], dict] = {}


def read_settings(env: RepoEnv) -> dict:
    """The runner settings stored in ``env``'s record (``record.json`` in its folder)."""
    if env.root is None:
        raise SeebenchError(f"{env.slug}: no environment folder")
    path = Path(env.root) / "record.json"
    try:
        key = (str(path), path.stat().st_mtime)
    except OSError:
        raise SeebenchError(f"{env.slug}: no environment record at {path}") from None
    if key not in _settings_cache:
        try:
            text = safe_files.read_text(path, safe_files.TEXT_MAX_BYTES)
            settings = json.loads(text).get("settings", {})
        except (OSError, ValueError, AttributeError, RecursionError) as error:
            raise SeebenchError(f"{path}: unreadable environment record: {error}") from None
        if not isinstance(settings, dict):
            raise SeebenchError(f"{path}: 'settings' must be a mapping")
        _settings_cache[key] = settings
    return _settings_cache[key]
