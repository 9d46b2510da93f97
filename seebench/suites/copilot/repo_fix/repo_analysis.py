"""Whole-repository analyses, cached on disk by what they depend on.

An analysis depends on the analyzer's identity (part 1's versions and settings plus the
repository mode's), the environment given to it and the analysed files (paths and contents),
so it is cached under ``$SEEBENCH_HOME/data/derived/copilot-repo-fix/<analyzer>-<identity>/``
by a key over the three. The analysis of the unchanged repository (the "before" of every
item of that repository, and the "after" of an answer that changes nothing) is thus computed
once per (repository, commit, analyzer, settings, environment). What is read back is checked;
a damaged entry is analysed again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.suites.copilot.fix.analyzers import AnalyzerError, Diagnostic
from seebench.suites.copilot.repo_fix.repo_analyzers import EnvPaths, RepoAnalyzer
from seebench.suites.copilot.repo_fix.tree import tree_key


@dataclass(frozen=True)
class RepoAnalysis:
    """An analyzer's diagnostics over a repository (relative path -> diagnostics), or why
    it could not say."""

    files: Mapping[str, tuple[Diagnostic, ...]] = field(default_factory=dict)
    error: str | None = None
    output: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def total(self) -> int:
        """The number of warnings over the whole repository."""
        return sum(len(diagnostics) for diagnostics in self.files.values())

    def of(self, path: str) -> tuple[Diagnostic, ...]:
        return tuple(self.files.get(path, ()))


@dataclass(frozen=True)
class RepoJob:
    """One analysis to make: the repository's analysed files and the environment given."""

    files: Mapping[str, str]
    env: EnvPaths = EnvPaths()


def cache_folder(tool: RepoAnalyzer) -> Path:
    from seebench.data.cache import data_dir

    return data_dir() / "derived" / "copilot-repo-fix" / f"{tool.name}-{tool.identity_hash()}"


def job_key(job: RepoJob) -> str:
    blob = f"{job.env.key}\n{tree_key(job.files)}".encode()
    return hashlib.sha256(blob).hexdigest()


def _read_entry(path: Path, key: str) -> RepoAnalysis | None:
    try:
        data = json.loads(safe_files.read_text(path))
        if data.get("key") != key or not isinstance(data.get("files"), dict):
            return None
        files = {
            str(name): tuple(Diagnostic.from_dict(d) for d in diagnostics)
            for name, diagnostics in data["files"].items()
        }
        return RepoAnalysis(files, output={"cached": True, **data.get("output", {})})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _write_entry(path: Path, key: str, analysis: RepoAnalysis) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    files = {name: [d.as_dict() for d in found] for name, found in analysis.files.items()}
    output = {k: analysis.output[k] for k in ("cpu_s", "wall_s") if k in analysis.output}
    tmp.write_text(json.dumps({"key": key, "files": files, "output": output}), encoding="utf-8")
    os.replace(tmp, path)


class RepoAnalysisRunner:
    """Runs whole-repository analyses with one analyzer: the cache first, the rest in the
    sandbox (``sandbox`` as for part 1's runner: an open or lazily opened pool; an
    unavailable one gives every job an error naming the reason)."""

    def __init__(self, tool: RepoAnalyzer, sandbox: Any, use_cache: bool = True) -> None:
        self.tool = tool
        self.sandbox = sandbox
        self.use_cache = use_cache
        self.folder = cache_folder(tool)
        self.ran = 0  # analyses actually run (not from the cache)

    def analyse(self, jobs: Sequence[RepoJob], group: int = 2) -> list[RepoAnalysis]:
        """The analysis of each job, in order; identical jobs are analysed once."""
        keys = [job_key(job) for job in jobs]
        done: dict[str, RepoAnalysis] = {}
        todo: dict[str, RepoJob] = {}
        for key, job in zip(keys, jobs, strict=True):
            cached = self._cached(key) if self.use_cache and key not in done else None
            if cached is not None:
                done[key] = cached
            elif key not in done:
                todo.setdefault(key, job)
        pending = list(todo.items())
        for start in range(0, len(pending), max(1, group)):
            batch = pending[start : start + max(1, group)]
            for (key, _), analysis in zip(batch, self._run([j for _, j in batch]), strict=True):
                done[key] = analysis
                if analysis.ok and self.use_cache:
                    _write_entry(self._path(key), key, analysis)
        return [done[key] for key in keys]

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def _cached(self, key: str) -> RepoAnalysis | None:
        path = self._path(key)
        return _read_entry(path, key) if path.is_file() else None

    def _run(self, jobs: list[RepoJob]) -> list[RepoAnalysis]:
        if not self.sandbox.available:
            reason = f"sandbox_unavailable: {self.sandbox.reason}"
            return [RepoAnalysis(error=reason) for _ in jobs]
        requests = [self.tool.request(dict(job.files), job.env) for job in jobs]
        results = self.sandbox.run_many(requests)
        self.ran += len(jobs)
        return [
            self._read(result, list(job.files)) for job, result in zip(jobs, results, strict=True)
        ]

    def _read(self, result: Any, names: list[str]) -> RepoAnalysis:
        output = {
            "verdict": result.verdict,
            "exit_code": result.exit_code,
            "stderr": result.stderr[-2000:],
            "cpu_s": round(result.cpu_s, 3),
            "wall_s": round(result.wall_s, 3),
        }
        if result.verdict not in ("passed", "failed"):
            return RepoAnalysis(
                error=f"{self.tool.name} {result.verdict}: {result.reason}", output=output
            )
        try:
            parsed = self.tool.parse(result.stdout, names)
        except (AnalyzerError, KeyError, TypeError, ValueError) as exc:
            message = str(exc) if isinstance(exc, AnalyzerError) else f"{type(exc).__name__}: {exc}"
            tail = result.stderr.strip().splitlines()[-1:] or [""]
            return RepoAnalysis(error=f"{message[:300]} {tail[0][:200]}".strip(), output=output)
        return RepoAnalysis({n: tuple(d) for n, d in parsed.items()}, output=output)
