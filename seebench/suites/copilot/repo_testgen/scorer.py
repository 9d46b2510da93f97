"""The scorer of repository-level test generation: the generated test run in the repository.

For each item, in order: the repository's environment must be ready here (repo-envs'
``ensure_env(..., build=False)``; otherwise the item is *excluded*, with the reason); the
validity check (a trivial test placed the same way must pass, once per focal file; otherwise
the item is unscored, as in §3.4); then the generated test is placed (:mod:`.placement`) and
run alone in the sandbox, network off. Score 1.0 when it **runs, passes and invokes the
focal method** (at least one test of the placed file passed, none failed or errored, and the
trace says the focal method was called from it); 0.0 otherwise. Excluded and invalid items
are unscored (``None``) and counted by the ``repo_test_excluded`` / ``repo_test_invalid``
metrics, never scored as model failures.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.scoring.core import Score, ScoreContext
from seebench.scoring.run import stable_hash
from seebench.suites.copilot.repo_testgen import placement
from seebench.suites.copilot.repo_testgen.backend import Backend, default_backend, staged_repo
from seebench.suites.copilot.repo_testgen.options import OPTIONS  # noqa: F401  (its options)
from seebench.suites.copilot.repos.integrity import TAMPERED
from seebench.suites.copilot.repos.staging import source_tree

#: sandbox verdicts that say the run did not finish: the item is unscored, not failed
NOT_RUN = ("sandbox_unavailable",)
#: changes when the scorer judges differently (part of its identity)
#: 2: tamper-evident runs (verdict tampered); 3: whole-file runners pass a run whose only
#: failures are the environment's baseline failures (repos.baseline_rule), node without
#: WebAssembly trap handlers (Wasm under the sandbox's address-space limit)
SCORER_VERSION = 3


def same_file(a: str, b: str) -> bool:
    """Two repository paths name the same file (one may be relative to a deeper rootdir)."""
    return a == b or a.endswith("/" + b) or b.endswith("/" + a)


def file_outcomes(outcomes: dict[str, str], test_file: str) -> dict[str, str]:
    """The outcomes of the tests of ``test_file`` (test ids are ``<file>::...``)."""
    return {t: o for t, o in outcomes.items() if same_file(t.split("::", 1)[0], test_file)}


def clean_pass(outcomes: dict[str, str]) -> bool:
    """At least one test passed and none failed or errored."""
    values = list(outcomes.values())
    return "passed" in values and not any(v in ("failed", "error") for v in values)


def _read(path: Path) -> str | None:
    try:
        return safe_files.read_text(path, safe_files.TEXT_MAX_BYTES)
    except (OSError, UnicodeDecodeError):
        return None


class RepoTestScorer:
    """Runs a generated test in its repository (see the module docstring)."""

    def __init__(
        self, timeout_s: float = 300.0, workers: int = 1, backend: Backend | None = None
    ) -> None:
        self.timeout_s = timeout_s
        self.workers = workers
        self._backend = backend
        self._valid: dict[tuple[str, str], tuple[bool, str]] = {}
        self._sandbox: Any = None
        self._lock = threading.Lock()

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = default_backend()
        return self._backend

    def identity(self) -> dict[str, Any]:
        return {
            "version": SCORER_VERSION,
            "timeout_s": self.timeout_s,
            "python_trace": "sys.setprofile in the focal folder's conftest",
            "js_trace": "per-test coverage of a focal body line",
        }

    def close(self) -> None:
        with self._lock:
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        return self.score_many([(sample, prediction)], context)[0]

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        ready: dict[str, tuple[Any, Any]] = {}
        scores: list[Score | None] = []
        for sample, _ in items:
            repo, why = staged_repo(sample.target)
            if repo is None:
                scores.append(_excluded(why))
                continue
            env = self.backend.ensure_env(repo, build=False)
            if env.status != "ready":
                scores.append(_excluded(f"environment {env.status}: {env.reason}"))
                continue
            ready[sample.id] = (repo, env)
            scores.append(None)
        if ready:
            sandbox = self._open([env for _, env in ready.values()])
            for position, (sample, prediction) in enumerate(items):
                if scores[position] is None:
                    repo, env = ready[sample.id]
                    scores[position] = self._judge(sample, prediction, repo, env, sandbox, context)
        return [s for s in scores if s is not None]

    def _open(self, envs: list[Any]) -> Any:
        with self._lock:
            if self._sandbox is None:
                self._sandbox = self.backend.open_repo_sandbox(envs, workers=self.workers)
            return self._sandbox

    def _run(self, env: Any, place: placement.Placement, sandbox: Any, coverage: bool) -> Any:
        return self.backend.run_tests(
            env,
            changes=place.answer_changes(),
            trusted_changes=place.trusted_changes(),
            answer_tests=(place.test_file,),
            tests=[place.test_file],
            coverage=coverage,
            timeout_s=self.timeout_s,
            sandbox=sandbox,
        )

    def _validity(self, repo: Any, env: Any, target: dict, sandbox: Any) -> tuple[bool, str]:
        """Whether a trivial test placed like the generated one passes (once per file)."""
        key = (repo.slug, target["file_path"])
        if key not in self._valid:
            place = self._place(repo, target, "", trivial=True)
            if place is None:
                self._valid[key] = (False, f"{target['file_path']} is not in the source tree")
            else:
                run = self._run(env, place, sandbox, coverage=False)
                own = file_outcomes(run.outcomes, place.test_file)
                why = "" if clean_pass(own) else f"{run.verdict}: {run.reason or 'not passed'}"
                self._valid[key] = (clean_pass(own), why)
        return self._valid[key]

    def _place(
        self, repo: Any, target: dict, answer: str, *, trivial: bool = False
    ) -> placement.Placement | None:
        tree = source_tree(repo)
        if target["language"] == "python":
            conftest = _read(tree / placement.conftest_path(target["file_path"]))
            return placement.python_placement(target, answer, conftest, trivial=trivial)
        focal = _read(tree / target["file_path"])
        if focal is None:
            return None
        return placement.js_placement(target, answer, focal, trivial=trivial)

    def _judge(
        self, sample: Any, prediction: Any, repo: Any, env: Any, sandbox: Any, ctx: ScoreContext
    ) -> Score:
        target = sample.target
        base = {"repository": repo.slug, "runner": env.runner}
        valid, why = self._validity(repo, env, target, sandbox)
        if not valid:
            return Score(
                None,
                explanation=f"validity check failed (a trivial test does not pass): {why}",
                metadata={**base, "valid": False, "invalid": why},
            )
        answer = prediction if isinstance(prediction, str) else ""
        facts = {**base, "valid": True, "passed": False, "invokes": False}
        if not answer.strip():
            return Score(0.0, explanation="no test code", metadata=facts)
        place = self._place(repo, target, answer)
        if place is None:
            return Score(0.0, explanation="focal file missing", metadata=facts)
        python = target["language"] == "python"
        run = self._run(env, place, sandbox, coverage=not python)
        if run.verdict in NOT_RUN:
            return Score(None, explanation=f"{run.verdict}: {run.reason}", metadata=facts)
        if run.verdict == TAMPERED:
            facts.update(tampered=True, verdict=run.verdict)
            return Score(0.0, explanation=f"tampered: {run.reason}"[:500], metadata=facts)
        own = file_outcomes(run.outcomes, place.test_file)
        if python:
            invoked = placement.read_trace(run.output)
        else:
            invoked = placement.covered_by(
                run.coverage,
                target["file_path"],
                target["first_line"],
                target["last_line"],
                place.test_file,
            )
        facts.update(
            passed=clean_pass(own) and run.verdict == "passed",
            invokes=bool(invoked),
            trace_missing=invoked is None,
            tests_passed=sum(1 for o in own.values() if o == "passed"),
            tests_failed=sum(1 for o in own.values() if o in ("failed", "error")),
            verdict=run.verdict,
            seconds=round(run.seconds, 3),
        )
        facts["log"] = self._write_log(ctx.artifacts, sample, answer, place, run)
        if facts["passed"] and facts["invokes"]:
            return Score(1.0, metadata=facts)
        if not own:
            why = f"no test of {place.test_file} ran ({run.verdict}: {run.reason or 'no tests'})"
        elif not facts["passed"]:
            why = f"{facts['tests_failed']} test(s) failed or errored"
        elif invoked is None:
            why = "the run left no trace of the focal method (trace report or coverage missing)"
        else:
            why = "the tests pass but never call the focal method"
        return Score(0.0, explanation=why, metadata=facts)

    def _write_log(
        self, artifacts: Path, sample: Any, answer: str, place: placement.Placement, run: Any
    ) -> str:
        name = f"copilot_repo_test/{sample.id}-{stable_hash(answer, 8)}.json"
        path = artifacts / name
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {
            "sample_id": sample.id,
            "answer": answer,
            "test_file": place.test_file,
            "changed": sorted(place.changes),
            "verdict": run.verdict,
            "reason": run.reason,
            "outcomes": run.outcomes,
            "output": run.output[-4000:],
        }
        safe_files.atomic_write_text(path, json.dumps(entry, ensure_ascii=False, indent=1))
        return name


def _excluded(reason: str) -> Score:
    return Score(None, explanation=f"excluded: {reason}", metadata={"excluded": reason})
