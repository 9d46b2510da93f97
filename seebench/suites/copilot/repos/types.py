"""What a repository environment and one run of its test suite are (the contract the
repository-level scenarios build on; the functions live in :mod:`.envs` and :mod:`.testrun`).

Test ids: pytest node ids for Python (``tests/test_x.py::TestA::test_b``); for JavaScript and
TypeScript ``<test file>::<full title>`` (describe blocks and test name joined by ``" > "``).
Paths are relative to the repository root, with ``/``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

EnvStatus = Literal["ready", "failed", "excluded"]
Outcome = Literal["passed", "failed", "error", "skipped"]


@dataclass(frozen=True)
class RepoEnv:
    """A repository's environment, built once and cached by (repository, commit, manifests).

    ``status`` is ``ready`` when the dependencies installed and the test suite ran (``runner``
    names how: ``pytest``, ``jest``, ``mocha``, ...); ``failed`` when the build or the suite
    did not run; ``excluded`` when it was not attempted (not a whole tree, no manifest, no
    test suite). ``reason`` is one line for every status but ``ready``. ``passing`` are the
    tests that passed in the baseline run (the unchanged repository, network off).
    """

    slug: str
    repo: str
    commit: str
    language: str
    status: EnvStatus
    reason: str = ""
    runner: str = ""
    root: Path | None = None  #: the environment folder (venv, node_modules...), mounted read-only
    build_seconds: float = 0.0
    suite_seconds: float = 0.0
    passing: frozenset[str] = frozenset()
    failing: frozenset[str] = frozenset()  #: failed or errored in the baseline run
    manifest_sha256: str = ""


@dataclass(frozen=True)
class TestRun:
    """One run of (part of) a repository's test suite in the sandbox, network off.

    ``verdict`` is the sandbox's verdict of the whole run: a failing test makes it
    ``failed`` (unless a runner that is not tamper-evident failed only tests that failed at
    baseline too: :mod:`seebench.suites.copilot.repos.baseline_rule`); ``timeout``,
    ``memory``, ``crashed`` and ``sandbox_unavailable`` say the suite did not finish.
    ``outcomes`` are per test. ``coverage`` (when asked for) maps a source
    file to line -> the ids of the tests that executed it.
    """

    verdict: str
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    seconds: float = 0.0
    output: str = ""  #: the tail of stdout and stderr, for the reason of a failure
    coverage: dict[str, dict[int, frozenset[str]]] | None = None
    reason: str = ""
    exit: int | None = None  #: the runner's exit status (``None``: no report)
    #: the failing tests a pass was granted despite (each failed at baseline too; see
    #: :mod:`seebench.suites.copilot.repos.baseline_rule`)
    baseline_failures: tuple[str, ...] = ()

    def passed(self, test_id: str) -> bool:
        """Whether ``test_id`` ran and passed."""
        return self.outcomes.get(test_id) == "passed"
