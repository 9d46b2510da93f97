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

    def command(
        self, env: RepoEnv, settings: dict, tests: list[str], coverage: bool, limits: Limits
    ) -> tuple[list[str], dict[str, str]]:
        """The argv (run in the copy of the tree) and environment variables of a run."""
        ...

    def failure_reason(self, report: dict, outcomes: dict[str, str]) -> str:
        """One line saying why a run that did not pass failed."""
        ...


def summarize_failure(report: dict, outcomes: dict[str, str]) -> str:
    """``N failed, M errors (first: ID)``, or the output's last line when nothing ran."""
    bad = sorted(test for test, outcome in outcomes.items() if outcome in ("failed", "error"))
    if bad:
        errors = sum(outcomes[test] == "error" for test in bad)
        return f"{len(bad) - errors} failed, {errors} errors (first: {bad[0]})"
    lines = [line.strip() for line in str(report.get("tail", "")).splitlines() if line.strip()]
    return f"exit status {report.get('exit')}: {lines[-1][:200] if lines else 'no output'}"


@dataclass(frozen=True)
class PytestRunner:
    """pytest in the environment's venv, with seebench's plugin (outcomes, coverage contexts)."""

    def command(
        self, env: RepoEnv, settings: dict, tests: list[str], coverage: bool, limits: Limits
    ) -> tuple[list[str], dict[str, str]]:
        python = Path(str(env.root)) / "venv" / "bin" / "python"
        pythonpath = settings.get("pythonpath", [""])
        if not isinstance(pythonpath, list) or not all(isinstance(p, str) for p in pythonpath):
            raise SeebenchError(f"{env.slug}: environment record: bad pythonpath {pythonpath!r}")
        config = {"args": tests, "coverage": coverage, "pythonpath": pythonpath}
        return [str(python), ".seebench/pytest_driver.py", json.dumps(config)], {}

    def failure_reason(self, report: dict, outcomes: dict[str, str]) -> str:
        return summarize_failure(report, outcomes)


RUNNERS: dict[str, Runner] = {"pytest": PytestRunner()}


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
