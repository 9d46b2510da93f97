"""A stand-in for repo-envs' API (same signatures) for the scenario's tests: the repository is
a small folder the test writes; ``run_tests`` copies it, applies the changes and runs pytest
on the host (the venv's interpreter) in a subprocess, reading per-test outcomes from
``-rA``. It is a test double: the scorer under test is the real one."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from seebench.suites.copilot.repo_testgen.backend import Backend
from seebench.suites.copilot.repos.types import RepoEnv, TestRun

SUMMARY = re.compile(r"^(PASSED|FAILED|ERROR) (\S+?)(?: - .*)?$", re.M)


class FakeEnvs:
    """``ensure_env``/``run_tests``/``open_repo_sandbox`` over folders named by slug."""

    def __init__(self, trees: Mapping[str, Path], status: str = "ready") -> None:
        self.trees = dict(trees)
        self.status = status
        self.runs: list[dict] = []
        self.coverage: dict | None = None
        self.passing = frozenset({"tests/test_calc.py::test_add", "tests/test_calc.py::test_other"})

    def backend(self) -> Backend:
        return Backend(self.ensure_env, self.run_tests, self.open_repo_sandbox)

    def ensure_env(self, repo, *, build: bool = True) -> RepoEnv:
        reason = "" if self.status == "ready" else "not built: run seebench copilot envs --build"
        return RepoEnv(
            slug=repo.slug,
            repo=repo.repo,
            commit=repo.commit,
            language=repo.language,
            status=self.status,
            reason=reason,
            runner="pytest",
            passing=self.passing,
            manifest_sha256="0" * 64,
        )

    def open_repo_sandbox(self, envs, workers: int = 1):
        return None

    def run_tests(
        self,
        env: RepoEnv,
        *,
        changes: Mapping[str, str] = {},
        tests: Sequence[str] | None = None,
        coverage: bool = False,
        extra_env: Mapping[str, str] = {},
        timeout_s: float | None = None,
        sandbox=None,
        answer_tests: Sequence[str] = (),
        trusted_changes: Mapping[str, str] | None = None,
    ) -> TestRun:
        changes = {**changes, **dict(trusted_changes or {})}
        self.runs.append({"changes": dict(changes), "tests": list(tests or []), "cov": coverage})
        if coverage and self.coverage is not None:
            return TestRun("passed", {}, coverage=self.coverage)
        with tempfile.TemporaryDirectory() as work:
            root = Path(work) / "repo"
            shutil.copytree(self.trees[env.slug], root)
            for path, text in changes.items():
                (root / path).parent.mkdir(parents=True, exist_ok=True)
                (root / path).write_text(text, encoding="utf-8")
            started = time.monotonic()
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    "-rA",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "--rootdir",
                    str(root),
                    *(tests or []),
                ],
                cwd=root,
                capture_output=True,
                text=True,
                timeout=timeout_s or 60,
                env={
                    "PATH": "/usr/bin:/bin",
                    "PYTHONDONTWRITEBYTECODE": "1",
                    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
                },
            )
        outcomes = {m[2]: m[1].lower() for m in SUMMARY.finditer(done.stdout)}
        outcomes = {k: ("error" if v == "error" else v) for k, v in outcomes.items()}
        verdict = "passed" if done.returncode == 0 else "failed"
        return TestRun(
            verdict,
            outcomes,
            seconds=time.monotonic() - started,
            output=(done.stdout + done.stderr)[-8000:],
        )
