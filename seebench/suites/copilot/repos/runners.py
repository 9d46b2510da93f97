"""The test runners a repository environment can use, by name (``RepoEnv.runner``).

A runner turns a run into the sandbox command that starts its driver (a harness file under
``.seebench/`` that prints the common JSON report) and says in one line why a run failed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from seebench.errors import SeebenchError
from seebench.sandbox import Limits
from seebench.suites.copilot.repos.types import RepoEnv


class Runner(Protocol):
    """How to run one kind of test suite."""

    #: whether the driver's report is tamper-evident (nonce, end of session, plugin origins;
    #: see :func:`seebench.suites.copilot.repos.testrun.report_problem`)
    tamper_evident: bool

    def command(
        self,
        env: RepoEnv,
        settings: dict,
        tests: list[str],
        coverage: bool,
        limits: Limits,
        changed: Sequence[str] = (),
    ) -> tuple[list[str], dict[str, str]]:
        """The argv (run in the copy of the tree) and environment variables of a run;
        ``changed`` are the paths the change under test wrote."""
        ...

    def failure_reason(self, report: dict, outcomes: dict[str, str]) -> str:
        """One line saying why a run that did not pass failed."""
        ...

    def failure_exit(self, failures: int) -> int:
        """The exit status the runner gives when ``failures`` tests (> 0) failed and nothing
        else went wrong."""
        ...


def summarize_failure(report: dict, outcomes: dict[str, str]) -> str:
    """``N failed, M errors (first: ID)``, or the output's last line when nothing ran."""
    bad = sorted(test for test, outcome in outcomes.items() if outcome in ("failed", "error"))
    if report.get("timed_out"):
        return f"the test run was stopped at the time limit ({len(outcomes)} outcomes recorded)"
    if bad:
        errors = sum(outcomes[test] == "error" for test in bad)
        return f"{len(bad) - errors} failed, {errors} errors (first: {bad[0]})"
    lines = [line.strip() for line in str(report.get("tail", "")).splitlines() if line.strip()]
    return f"exit status {report.get('exit')}: {lines[-1][:200] if lines else 'no output'}"


def driver_timeout(limits: Limits) -> int:
    """Seconds the driver gives the runner: the wall limit less a margin for the report."""
    return int(max(5.0, min(limits.wall_s * 0.9, limits.wall_s - 10)))


@dataclass(frozen=True)
class PytestRunner:
    """pytest in the environment's venv, with seebench's plugin (outcomes through a pipe,
    the session's end marker, coverage contexts)."""

    tamper_evident = True

    def command(
        self,
        env: RepoEnv,
        settings: dict,
        tests: list[str],
        coverage: bool,
        limits: Limits,
        changed: Sequence[str] = (),
    ) -> tuple[list[str], dict[str, str]]:
        python = Path(str(env.root)) / "venv" / "bin" / "python"
        pythonpath = settings.get("pythonpath", [""])
        if not isinstance(pythonpath, list) or not all(isinstance(p, str) for p in pythonpath):
            raise SeebenchError(f"{env.slug}: environment record: bad pythonpath {pythonpath!r}")
        config = {
            "args": tests,
            "coverage": coverage,
            "pythonpath": pythonpath,
            "timeout_s": driver_timeout(limits),
            "changed": sorted(changed),
        }
        return [str(python), ".seebench/pytest_driver.py", json.dumps(config)], {}

    def failure_reason(self, report: dict, outcomes: dict[str, str]) -> str:
        return summarize_failure(report, outcomes)

    def failure_exit(self, failures: int) -> int:
        return 1  # pytest's ExitCode.TESTS_FAILED


@dataclass(frozen=True)
class NodeRunner:
    """jest, mocha or vitest from the environment's node_modules, driven by
    ``node_driver.cjs`` (per-test outcomes from the runner's JSON report or seebench's mocha
    reporter; coverage per test file, see the driver)."""

    name: str
    #: mocha exits with the number of failed tests (at most 255); jest, vitest and
    #: ``node --test`` with 1
    exit_counts_failures: bool = False
    tamper_evident = False

    def command(
        self,
        env: RepoEnv,
        settings: dict,
        tests: list[str],
        coverage: bool,
        limits: Limits,
        changed: Sequence[str] = (),
    ) -> tuple[list[str], dict[str, str]]:
        script = settings.get("script")
        if not isinstance(script, str) or ".." in script.split("/") or script.startswith("/"):
            raise SeebenchError(f"{env.slug}: environment record: bad runner script {script!r}")
        files = list(dict.fromkeys(test.split("::", 1)[0] for test in tests))
        config = {
            "runner": self.name,
            "script": script,
            "options": _strings(settings.get("options", []), env, "options"),
            "specs": _strings(settings.get("specs", []), env, "specs"),
            "files": files,
            "coverage": coverage,
            "envRoot": str(env.root),
            "heapMb": max(64, limits.memory_mb * 3 // 4),
            "timeoutS": driver_timeout(limits),
        }
        variables = settings.get("env", {})
        if not isinstance(variables, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in variables.items()
        ):
            raise SeebenchError(f"{env.slug}: environment record: bad env {variables!r}")
        node_options = _strings(settings.get("node_options", []), env, "node_options")
        argv = ["node", *node_options, ".seebench/node_driver.cjs", json.dumps(config)]
        return argv, dict(variables)

    def failure_reason(self, report: dict, outcomes: dict[str, str]) -> str:
        return summarize_failure(report, outcomes)

    def failure_exit(self, failures: int) -> int:
        return min(failures, 255) if self.exit_counts_failures else 1


def _strings(value: object, env: RepoEnv, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise SeebenchError(f"{env.slug}: environment record: {key} must be a list of strings")
    return value


RUNNERS: dict[str, Runner] = {
    "pytest": PytestRunner(),
    "jest": NodeRunner("jest"),
    "mocha": NodeRunner("mocha", exit_counts_failures=True),
    "vitest": NodeRunner("vitest"),
    "node-test": NodeRunner("node-test"),
}


def runner_for(name: str) -> Runner:
    """The runner called ``name``; an error naming the known ones otherwise."""
    try:
        return RUNNERS[name]
    except KeyError:
        raise SeebenchError(
            f"unknown test runner {name!r} (known: {', '.join(sorted(RUNNERS))})"
        ) from None


def known_runners() -> Sequence[str]:
    return sorted(RUNNERS)
