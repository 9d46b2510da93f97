"""The whole-repository analysis cache: keyed by the analyzer's identity, the environment and
the repository's state (every analysed path and content); what is read back is checked.

A stand-in repository analyzer (one warning per line holding ``BAD``, in any file) and a
stand-in sandbox that counts the analyses it ran replace the real tools.
"""

from __future__ import annotations

import hashlib
import json
from types import SimpleNamespace
from typing import Any

from seebench.suites.copilot.fix.analyzers import Diagnostic
from seebench.suites.copilot.repo_fix.repo_analysis import (
    RepoAnalysisRunner,
    RepoJob,
    cache_folder,
    job_key,
)
from seebench.suites.copilot.repo_fix.repo_analyzers import EnvPaths

REPO = {"pkg/a.py": "x = 1\nBAD\n", "pkg/b.py": "BAD\n"}


class CountingRepoAnalyzer:
    """The repository-mode interface the runner uses, with a settable version."""

    name = "counting"

    def __init__(self, version: str = "1") -> None:
        self.version = version

    def identity_hash(self) -> str:
        return hashlib.sha256(f"counting {self.version}".encode()).hexdigest()[:16]

    def request(self, files: dict[str, str], env: EnvPaths) -> Any:
        return dict(files)

    def parse(self, stdout: str, names: list[str]) -> dict[str, list[Diagnostic]]:
        data = json.loads(stdout)
        return {name: [Diagnostic("bad", "bad line", n) for n in data[name]] for name in names}


class CountingSandbox:
    available = True
    reason = ""

    def __init__(self) -> None:
        self.runs = 0

    def run_many(self, requests: list[dict[str, str]]) -> list[Any]:
        self.runs += len(requests)
        out = []
        for files in requests:
            found = {
                name: [n for n, line in enumerate(text.splitlines(), 1) if "BAD" in line]
                for name, text in files.items()
            }
            out.append(
                SimpleNamespace(
                    verdict="passed",
                    exit_code=0,
                    stdout=json.dumps(found),
                    stderr="",
                    cpu_s=0.0,
                    wall_s=0.0,
                    reason="",
                )
            )
        return out


def test_the_unchanged_repository_is_analysed_once_for_every_item_and_the_null_answer():
    sandbox = CountingSandbox()
    jobs = [RepoJob(dict(REPO)) for _ in range(4)]  # before/after of two null answers
    analyses = RepoAnalysisRunner(CountingRepoAnalyzer(), sandbox).analyse(jobs)
    assert sandbox.runs == 1 and [a.total for a in analyses] == [2, 2, 2, 2]
    again = CountingSandbox()
    cached = RepoAnalysisRunner(CountingRepoAnalyzer(), again).analyse([RepoJob(dict(REPO))])
    assert again.runs == 0 and cached[0].of("pkg/a.py") == analyses[0].of("pkg/a.py")


def test_another_file_content_environment_or_analyzer_version_misses_the_cache():
    RepoAnalysisRunner(CountingRepoAnalyzer(), CountingSandbox()).analyse([RepoJob(dict(REPO))])
    edited = {**REPO, "pkg/b.py": "fixed\n"}
    moved = {"pkg/c.py" if k == "pkg/b.py" else k: v for k, v in REPO.items()}
    env = EnvPaths(key="venv-1", note="a ready environment")
    sandbox = CountingSandbox()
    runner = RepoAnalysisRunner(CountingRepoAnalyzer(), sandbox)
    totals = [
        a.total for a in runner.analyse([RepoJob(edited), RepoJob(moved), RepoJob(REPO, env)])
    ]
    assert sandbox.runs == 3 and totals == [1, 2, 2]
    other = CountingSandbox()
    RepoAnalysisRunner(CountingRepoAnalyzer("2"), other).analyse([RepoJob(dict(REPO))])
    assert other.runs == 1
    assert cache_folder(CountingRepoAnalyzer("1")) != cache_folder(CountingRepoAnalyzer("2"))


def test_a_damaged_or_foreign_entry_is_analysed_again():
    tool = CountingRepoAnalyzer()
    edited = {**REPO, "pkg/b.py": "fixed\n"}
    RepoAnalysisRunner(tool, CountingSandbox()).analyse([RepoJob(REPO), RepoJob(edited)])
    keys = [job_key(RepoJob(REPO)), job_key(RepoJob(edited))]
    paths = [cache_folder(tool) / key[:2] / f"{key}.json" for key in keys]
    body = json.loads(paths[1].read_text(encoding="utf-8"))
    paths[0].write_text(json.dumps({**body, "key": keys[1]}), encoding="utf-8")  # another's
    paths[1].write_text(json.dumps({**body, "files": {"pkg/a.py": [{"rule": 1}]}}), "utf-8")
    sandbox = CountingSandbox()
    analyses = RepoAnalysisRunner(tool, sandbox).analyse([RepoJob(REPO), RepoJob(edited)])
    assert sandbox.runs == 2 and [a.total for a in analyses] == [2, 1]
    assert json.loads(paths[0].read_text(encoding="utf-8"))["key"] == keys[0]
