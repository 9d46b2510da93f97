"""A tiny repository written by the tests and a fake of repo-envs' ``run_tests`` that really
runs its pytest tests (on a copy with the changes applied), so scores can fail."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.suites.copilot.repos.types import RepoEnv, TestRun

MODULE = '''"""A small text toolkit."""

import re


class Words:
    """Words of a text."""

    def __init__(self, text):
        self.text = text

    def count(self):
        """How many words the text has."""
        return len(self.text.split())

    def banner(self):
        """The text framed by a line of dashes above and below."""
        line = "-" * len(self.text)
        return f"""{line}
{self.text}
{line}"""


def slug(title):
    """Lower-case words of ``title`` joined by hyphens."""
    words = re.findall(r"[a-z0-9]+", title.lower())
    return "-".join(words)


def unused(x):
    """Never called by a test."""
    return x * 2


def undocumented(x):
    return x + 1
'''
TESTS = """from toolkit import Words, slug, undocumented


def test_count():
    assert Words("a b c").count() == 3


def test_banner():
    assert Words("ab").banner() == "--\\nab\\n--"


def test_slug():
    assert slug("Hello, World!") == "hello-world"


def test_undocumented():
    assert undocumented(1) == 2


def test_broken():
    assert slug("x") == "y"
"""


def write_repo(root: Path) -> Path:
    """The tiny repository: ``toolkit.py`` and ``tests/test_toolkit.py``."""
    (root / "tests").mkdir(parents=True, exist_ok=True)
    (root / "toolkit.py").write_text(MODULE, encoding="utf-8")
    (root / "tests" / "test_toolkit.py").write_text(TESTS, encoding="utf-8")
    return root


def run_pytest(tree: Path, tests: list[str] | None) -> dict[str, str]:
    """Outcome per pytest node id of a run in ``tree``."""
    command = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-rA",
        "-p",
        "no:cacheprovider",
        *(tests or []),
    ]
    done = subprocess.run(
        command, cwd=tree, capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(tree)}
    )
    outcomes = {}
    for match in re.finditer(r"^(PASSED|FAILED|ERROR) (\S+)", done.stdout, re.M):
        outcomes[match[2]] = "passed" if match[1] == "PASSED" else "failed"
    return outcomes


@dataclass
class FakeRepoEnvs:
    """``ensure_env`` / ``run_tests`` of repo-envs for the tiny repository (no sandbox)."""

    tree: Path
    work: Path
    status: str = "ready"
    calls: list[dict[str, Any]] = field(default_factory=list)

    def env(self) -> RepoEnv:
        if not hasattr(self, "_baseline"):
            self._baseline = run_pytest(self.tree, None)
        baseline = self._baseline
        return RepoEnv(
            slug="tiny+toolkit@" + "0" * 40, repo="tiny/toolkit", commit="0" * 40,
            language="python", status=self.status, reason="" if self.status == "ready" else "broken",
            runner="pytest",
            passing=frozenset(t for t, o in baseline.items() if o == "passed"),
            failing=frozenset(t for t, o in baseline.items() if o != "passed"),
        )  # fmt: skip

    def ensure_env(self, repo: Any) -> RepoEnv:
        return self.env()

    def run_tests(
        self, env: RepoEnv, *, changes=None, tests=None, timeout_s=None, **_: Any
    ) -> TestRun:
        self.calls.append({"changes": dict(changes or {}), "tests": tests})
        copy = self.work / f"run{len(self.calls)}"
        shutil.copytree(self.tree, copy)
        for path, text in (changes or {}).items():
            (copy / path).write_text(text, encoding="utf-8")
        outcomes = run_pytest(copy, tests)
        verdict = (
            "passed" if outcomes and all(o == "passed" for o in outcomes.values()) else "failed"
        )
        return TestRun(verdict=verdict, outcomes=outcomes, seconds=0.1)
