"""Analyse many files with one analyzer in the sandbox, batched, with a cache on disk.

A file's warnings depend only on the analyzer's identity (versions, settings), the file's
name and its content, so they are cached under
``$SEEBENCH_HOME/data/derived/copilot-fix/<analyzer>-<identity hash>/``, one JSON file per
(name, content). What is read back is checked; a damaged entry is analysed again.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.suites.copilot.fix.analyzers import Analyzer, AnalyzerError, Diagnostic, folder_name

#: batches sent to the sandbox together (and cached together)
ROUND = 4


@dataclass(frozen=True)
class Analysis:
    """What an analyzer said about one file: its diagnostics, or why it could not say."""

    diagnostics: tuple[Diagnostic, ...] = ()
    error: str | None = None
    output: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None

    def as_dict(self) -> dict[str, Any]:
        return {
            "diagnostics": [d.as_dict() for d in self.diagnostics],
            "error": self.error,
        }


def cache_folder(analyzer: Analyzer) -> Path:
    from seebench.data.cache import data_dir

    name = f"{analyzer.name}-{analyzer.identity_hash()}"
    return data_dir() / "derived" / "copilot-fix" / name


def entry_key(file_name: str, content: str) -> str:
    blob = file_name.encode() + b"\0" + content.encode("utf-8", "surrogatepass")
    return hashlib.sha256(blob).hexdigest()


def _read_entry(path: Path, key: str) -> Analysis | None:
    try:
        data = json.loads(safe_files.read_text(path))
        if data.get("key") != key:
            return None
        return Analysis(tuple(Diagnostic.from_dict(d) for d in data["diagnostics"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _write_entry(path: Path, key: str, analysis: Analysis) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    body = {"key": key, "diagnostics": [d.as_dict() for d in analysis.diagnostics]}
    tmp.write_text(json.dumps(body), encoding="utf-8")
    os.replace(tmp, path)


class AnalysisRunner:
    """Analyses files with one analyzer: cached results first, the rest in sandbox batches.

    ``sandbox`` is an open sandbox (or an unavailable one: every file then gets an error
    naming the reason, and nothing is cached).
    """

    def __init__(self, analyzer: Analyzer, sandbox: Any, use_cache: bool = True) -> None:
        self.analyzer = analyzer
        self.sandbox = sandbox
        self.use_cache = use_cache
        self.folder = cache_folder(analyzer)
        self.ran = 0  # files actually analysed (not from the cache)

    def analyse(self, files: Sequence[tuple[str, str]]) -> list[Analysis]:
        """The analysis of each ``(file name, content)``, in order; a file given several
        times (the same name and content: cases sharing a file, an answer that changes
        nothing) is analysed once and its result shared."""
        results: list[Analysis | None] = [None] * len(files)
        todo: list[int] = []
        keys = [entry_key(name, content) for name, content in files]
        first: dict[str, int] = {}  # key -> the position that stands for it
        for position, key in enumerate(keys):
            if key in first:
                continue
            first[key] = position
            cached = self._cached(key) if self.use_cache else None
            if cached is None:
                todo.append(position)
            else:
                results[position] = cached
        # batches of at most the analyzer's size, as even as can be (46 files, at most 22 a
        # batch: 16 + 15 + 15, not 22 + 22 + 2)
        count = -(-len(todo) // max(1, self.analyzer.batch_size))
        small, larger = divmod(len(todo), max(1, count))
        bounds = [n * small + min(n, larger) for n in range(count + 1)]
        batches = [todo[bounds[n] : bounds[n + 1]] for n in range(count)]
        # a few batches at a time (one per worker or so), each cached as soon as it is done
        for start in range(0, len(batches), ROUND):
            group = batches[start : start + ROUND]
            for batch, outcome in zip(group, self._run_batches(files, group), strict=True):
                for position, analysis in zip(batch, outcome, strict=True):
                    results[position] = analysis
                    if analysis.ok and self.use_cache:
                        _write_entry(self._path(keys[position]), keys[position], analysis)
        for position, key in enumerate(keys):
            results[position] = results[first[key]]
        return [r if r is not None else Analysis(error="not analysed") for r in results]

    def _path(self, key: str) -> Path:
        return self.folder / key[:2] / f"{key}.json"

    def _cached(self, key: str) -> Analysis | None:
        path = self._path(key)
        return _read_entry(path, key) if path.is_file() else None

    def _run_batches(
        self, files: Sequence[tuple[str, str]], batches: list[list[int]]
    ) -> list[list[Analysis]]:
        if not batches:
            return []
        if not self.sandbox.available:
            reason = f"sandbox_unavailable: {self.sandbox.reason}"
            return [[Analysis(error=reason) for _ in batch] for batch in batches]
        requests, names = [], []
        for batch in batches:
            batch_files = {folder_name(i, files[p][0]): files[p][1] for i, p in enumerate(batch)}
            names.append(list(batch_files))
            requests.append(self.analyzer.request(batch_files))
        outcomes = []
        for batch, batch_names, result in zip(
            batches, names, self.sandbox.run_many(requests), strict=True
        ):
            outcome = self._read(result, batch_names)
            if len(batch) > 1 and not all(a.ok for a in outcome):
                # one file may have broken the batch (a crash, a timeout): run each alone
                alone = self._run_batches(files, [[p] for p in batch])
                outcome = [analyses[0] for analyses in alone]
            else:
                self.ran += len(batch)
            outcomes.append(outcome)
        return outcomes

    def _read(self, result: Any, names: list[str]) -> list[Analysis]:
        output = {
            "verdict": result.verdict,
            "exit_code": result.exit_code,
            "stderr": result.stderr[-2000:],
            "cpu_s": round(result.cpu_s, 3),
        }
        if result.verdict not in ("passed", "failed"):
            reason = f"{self.analyzer.name} {result.verdict}: {result.reason}"
            return [Analysis(error=reason, output=output) for _ in names]
        try:
            parsed = self.analyzer.parse(result.stdout, names)
        except (AnalyzerError, KeyError, TypeError, ValueError) as exc:
            message = str(exc) if isinstance(exc, AnalyzerError) else f"{type(exc).__name__}: {exc}"
            tail = result.stderr.strip().splitlines()[-1:] or [""]
            reason = f"{message[:300]} {tail[0][:200]}".strip()
            return [Analysis(error=reason, output=output) for _ in names]
        return [Analysis(tuple(parsed[name]), output=output) for name in names]
