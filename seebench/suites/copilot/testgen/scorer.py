"""The test scenario's scorers: the generated test file's syntax, and one sandbox run per answer
that gives the validity check, the pass verdict, the traced call of the focal definition and
the mutants it kills (see :mod:`.driver` and :mod:`.mutants`).
"""

from __future__ import annotations

import json
import os
import platform
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.scoring.core import Score, ScoreContext
from seebench.scoring.python_tests import SANDBOX_NONE, SANDBOX_UNAVAILABLE
from seebench.scoring.run import stable_hash
from seebench.suites.copilot.generate.compat import prelude
from seebench.suites.copilot.generate.scorers import python_syntax
from seebench.suites.copilot.testgen import driver, mutants
from seebench.suites.copilot.testgen.options import OPTIONS  # noqa: F401  (its options)


class TestSyntaxScorer:
    """1.0 when the generated test file is non-empty and parses (tree-sitter and CPython)."""

    def identity(self) -> dict[str, Any]:
        return {"parsers": ["tree-sitter-python", "cpython"], "python": platform.python_version()}

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        if not isinstance(prediction, str) or not prediction.strip():
            return Score(0.0, explanation="no test code", metadata={"empty": True})
        ok, verdicts, error = python_syntax(prediction)
        return Score(1.0 if ok else 0.0, explanation=error, metadata=verdicts)


class GeneratedTestScorer:
    """Runs a generated pytest file appended to the focal file, in the sandbox.

    Score: 1.0 when its tests pass on the solution (at least one test, nothing failing), 0.0
    otherwise; unscored (``None``) when the validity check fails (a trivial test appended to
    the same file does not pass, §3.4) or no sandbox can start. The metadata carries what the
    other metrics read: ``invokes``, ``mutants``, ``killed`` and ``mutation_score``.
    """

    def __init__(
        self,
        cpu_s: float = 30.0,
        wall_s: float = 90.0,
        memory_mb: int = 1024,
        test_timeout_s: float = 5.0,
        max_mutants: int = 10,
        max_candidates: int = 30,
        seed: int = 0,
        workers: int | None = None,
        compat: list[str] | tuple[str, ...] = (),
        store: mutants.MutantStore | None = None,
    ) -> None:
        from seebench.sandbox import Limits

        self.limits = Limits(cpu_s=cpu_s, wall_s=wall_s, memory_mb=memory_mb)
        self.test_timeout_s = test_timeout_s
        self.max_mutants, self.max_candidates, self.seed = max_mutants, max_candidates, seed
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self.compat = tuple(compat)
        self.prelude = prelude(self.compat)
        self.store = store
        self.unsafe_host_exec = False
        self._sandbox: Any = None
        self._lock = threading.Lock()

    def configure(self, run_options: dict[str, Any]) -> None:
        self.unsafe_host_exec = bool(run_options.get("unsafe_host_exec", False))

    def identity(self) -> dict[str, Any]:
        from seebench.sandbox import SandboxUnavailable, detect

        facts: dict[str, Any]
        if self.unsafe_host_exec:
            facts = {"sandbox": SANDBOX_NONE}
        else:
            try:
                facts = {"sandbox": detect().name}
            except SandboxUnavailable as error:
                facts = {"sandbox": SANDBOX_UNAVAILABLE, "sandbox_reason": str(error)}
        return {
            **facts,
            "limits": self.limits.as_dict(),
            "test_timeout_s": self.test_timeout_s,
            "timer": "cpu",
            "driver": driver.DRIVER_VERSION,
            "mutants": {
                "max": self.max_mutants,
                "candidates": self.max_candidates,
                "seed": self.seed,
                "format": mutants.FORMAT,
            },
            "compat": list(self.compat),
            "python": platform.python_version(),
        }

    def _open(self) -> Any:
        with self._lock:
            if self._sandbox is None:
                from seebench.sandbox import open_sandbox

                self._sandbox = open_sandbox(
                    workers=self.workers, unsafe_host_exec=self.unsafe_host_exec
                )
            return self._sandbox

    def close(self) -> None:
        with self._lock:
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None

    # -- mutants ------------------------------------------------------------------------

    def _store(self) -> mutants.MutantStore:
        if self.store is None:
            self.store = mutants.default_store()
        return self.store

    def _filter_judge(self) -> dict[str, Any]:
        """What decides which candidates the hidden tests notice (part of the store's key)."""
        return {
            "filter_sha256": stable_hash(driver.FILTER, 16),
            "test_timeout_s": self.test_timeout_s,
            "limits": self.limits.as_dict(),
            "prelude_sha256": stable_hash(self.prelude, 16),
            "python": platform.python_version(),
        }

    def mutant_sets(self, targets: dict[str, dict[str, Any]]) -> dict[str, Any]:
        """``{sample id: MutantSet}`` (or a reason string when none could be made), drawing and
        filtering the missing sets with every item's candidates in one sandbox batch."""
        from seebench.sandbox import SandboxRequest
        from seebench.sandbox.types import PythonProgram

        store = self._store()
        out: dict[str, mutants.MutantSet | str] = {}
        todo: dict[str, tuple[dict[str, Any], list[mutants.Mutant]]] = {}
        for sid, target in targets.items():
            key = store.key(
                target, self.seed, self.max_mutants, self.max_candidates, self._filter_judge()
            )
            found = store.load(key)
            if found is not None:
                out[sid] = found
            else:
                drawn = mutants.draw(
                    target["solution"], target["entry_point"], self.seed, self.max_candidates
                )
                todo[sid] = (key, drawn)
        if not todo:
            return out
        sandbox = self._open()
        if not sandbox.available:
            return {**out, **{sid: f"sandbox_unavailable: {sandbox.reason}" for sid in todo}}
        requests = []
        for sid, (_, drawn) in todo.items():
            sources = [targets[sid]["solution"], *(m.source for m in drawn)]
            program = driver.filter_source(
                self.prelude, sources, targets[sid]["tests"], self.test_timeout_s
            )
            budget = self.test_timeout_s + len(drawn) * self.test_timeout_s + 10
            limits = self.limits.replace(
                cpu_s=max(self.limits.cpu_s, budget), wall_s=max(self.limits.wall_s, 3 * budget)
            )
            requests.append(
                SandboxRequest(program=PythonProgram(program, filename="filter.py"), limits=limits)
            )
        for (sid, (key, drawn)), result in zip(
            todo.items(), sandbox.run_many(requests), strict=True
        ):
            if result.verdict == "sandbox_unavailable":
                out[sid] = f"sandbox_unavailable: {result.reason}"
                continue
            verdicts = driver.read_verdicts(result.stdout, len(drawn) + 1)
            if verdicts is None:
                out[sid] = f"mutants not filtered: {result.verdict}: {result.reason or 'no report'}"
                continue
            original, *runs = verdicts
            if original != "passed":
                kept: list[mutants.Mutant] = []  # hidden tests fail on the solution: no filter
            else:
                kept = [m for m, v in zip(drawn, runs, strict=True) if v != "passed"]
            kept = [
                mutants.Mutant(f"m{n:02d}", m.operator, m.line, m.source)
                for n, m in enumerate(kept[: self.max_mutants], 1)
            ]
            made = mutants.MutantSet(kept, len(drawn), sum(1 for v in runs if v == "passed"))
            store.save(key, made)
            out[sid] = made
        return out

    # -- scoring ------------------------------------------------------------------------

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        return self.score_many([(sample, prediction)], context)[0]

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        from seebench.sandbox import SandboxRequest
        from seebench.sandbox.types import PythonProgram

        sets = self.mutant_sets({s.id: s.target for s, _ in items})
        scores: list[Score | None] = [None] * len(items)
        runs: list[tuple[int, dict[str, str], int]] = []
        for position, (sample, prediction) in enumerate(items):
            made = sets[sample.id]
            if isinstance(made, str):
                scores[position] = Score(None, explanation=made)
                continue
            test = prediction if isinstance(prediction, str) else ""
            # no test code kills no mutant: only the validity check and the original run
            sources = [m.source for m in made.mutants] if test.strip() else []
            files = driver.run_files(self.prelude, sample.target["solution"], test, sources)
            runs.append((position, files, len(made.mutants)))
        if runs:
            sandbox = self._open()
            requests = []
            for position, files, _ in runs:
                entry = items[position][0].target["entry_point"]
                source = driver.driver_source(
                    entry, driver.run_order(files), test_timeout_s=self.test_timeout_s
                )
                requests.append(
                    SandboxRequest(
                        files=files,
                        program=PythonProgram(source, filename="seebench_driver.py"),
                        limits=self.limits,
                    )
                )
            for (position, files, count), result in zip(
                runs, sandbox.run_many(requests), strict=True
            ):
                sample, prediction = items[position]
                scores[position] = self._score_of(
                    sample, prediction, files, count, sets[sample.id], result, context
                )
        return [s for s in scores if s is not None]

    def _score_of(
        self,
        sample: Any,
        prediction: Any,
        files: dict[str, str],
        count: int,
        made: mutants.MutantSet,
        result: Any,
        context: ScoreContext,
    ) -> Score:
        if result.verdict == "sandbox_unavailable":
            return Score(None, explanation=f"sandbox_unavailable: {result.reason}")
        report = driver.read_report(result.stdout)
        log = self._write_log(context.artifacts, sample, prediction, files, made, result)
        base = {"verdict": result.verdict, "sandbox": result.mechanism, "log": log}
        if report is None or not result.passed:
            reason = result.reason or "the driver wrote no report"
            return Score(
                0.0,
                explanation=f"{result.verdict}: {reason}",
                metadata={
                    **base,
                    "valid": None,
                    "passed": False,
                    "invokes": False,
                    "mutants": count,
                    "killed": 0,
                    "mutation_score": 0.0 if count else None,
                    "stderr": result.stderr[-2000:],
                },
            )
        facts = driver.summary(report, count)
        facts["mutation_score"] = (
            (facts["killed"] / count if facts["passed"] else 0.0) if count else None
        )
        facts["operators"] = [m.operator for m in made.mutants]
        metadata = {**base, **facts, "output": report.output[-2000:]}
        if not facts["valid"]:
            return Score(
                None,
                explanation="validity check failed: a trivial test does not pass on the "
                "focal file, so this item's results are unreliable (§3.4)",
                metadata=metadata,
            )
        if facts["passed"]:
            return Score(1.0, metadata=metadata)
        if facts["collect_error"]:
            why = "the test file does not import (syntax error, bad import or module code)"
        elif facts["tests_passed"] + facts["tests_failed"] == 0:
            why = "no test was collected"
        else:
            why = f"{facts['tests_failed']} test(s) failed on the solution"
        return Score(0.0, explanation=why, metadata=metadata)

    def _write_log(
        self,
        artifacts: Path,
        sample: Any,
        prediction: Any,
        files: dict[str, str],
        made: mutants.MutantSet,
        result: Any,
    ) -> str:
        """The answer, the assembled files, the mutants' edits and the full sandbox result."""
        name = f"copilot_test/{sample.id}-{stable_hash(prediction, 8)}.json"
        path = artifacts / name
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {
            "sample_id": sample.id,
            "answer": prediction,
            "files": {k: v for k, v in files.items() if not k.startswith("test_mutant_")},
            "mutants": [
                {"file": driver.mutant_file(n), "operator": m.operator, "line": m.line}
                for n, m in enumerate(made.mutants, 1)
            ],
            "limits": self.limits.as_dict(),
            "result": result.as_dict(),
        }
        safe_files.atomic_write_text(path, json.dumps(entry, ensure_ascii=False, indent=1))
        return name
