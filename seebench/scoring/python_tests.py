"""The ``python_tests`` scorer: run a completion with its tests in the sandbox.

One scorer object serves one unit: it opens a pool of sandbox workers on its first batch,
reuses it for every sample (and every repeat), and closes it when the unit is scored
(``close``). The candidate (input + completion) and the tests (tests + ``check(entry_point)``)
run in two processes with plain data between them (``FunctionTest``); a sample passes only
when the tests return normally.

Helpers: by default (``helpers: prompt``) the prompt itself, trusted task data, also runs in
the tests' process, so a helper it defines (HumanEval's ``poly``, ``encode_cyclic``) is the
prompt's own there, whatever the completion redefines; only the entry point comes from the
candidate. ``helpers: completion`` is the original HumanEval script's semantics (one program:
a completion that redefines a helper changes what the tests call), with its own identity.
Every score's ``metadata["verdict"]`` is a sample verdict (:mod:`seebench.scoring.verdicts`);
a run the infrastructure failed is retried, then left unscored. See ``docs/sandbox.md``.
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
from seebench.scoring.run import stable_hash
from seebench.scoring.verdicts import INFRA_RETRIES, from_sandbox, score_value

#: Characters of stdout and of stderr kept in a score's metadata (the log keeps the sandbox's own bound).
METADATA_OUTPUT_CHARS = 2000
#: The option schemas of ``python_tests`` (``scorers: [{name: python_tests, options: {...}}]``).
OPTIONS: dict[str, Any] = {
    "cpu_s": {
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "a CPU-time limit in seconds (> 0)",
    },
    "wall_s": {
        "type": "number",
        "exclusiveMinimum": 0,
        "description": "a wall-time limit in seconds (> 0)",
    },
    "memory_mb": {"type": "integer", "minimum": 16, "description": "a memory limit in MiB (>= 16)"},
    "workers": {
        "type": "integer",
        "minimum": 1,
        "maximum": 64,
        "description": "sandbox workers running tests in parallel (1 to 64)",
    },
    "bwrap": {
        "type": "string",
        "minLength": 1,
        "description": "the path of the bwrap executable to use",
    },
    "helpers": {
        "enum": ["prompt", "completion"],
        "description": "where the tests' helpers come from: the prompt (trusted, the default) "
        "or the completion's program (the original HumanEval semantics)",
    },
}
#: ``helpers`` values: the prompt's own helpers (default), or the completion's (original).
HELPERS_PROMPT = "prompt"
HELPERS_COMPLETION = "completion"
SANDBOX_NONE = "none"
SANDBOX_UNAVAILABLE = "unavailable"


def _clip(text: str) -> str:
    return text if len(text) <= METADATA_OUTPUT_CHARS else text[:METADATA_OUTPUT_CHARS] + "...[cut]"


def test_program(prompt: str, completion: str, target: dict[str, Any]) -> str:
    """The program that judges ``completion``: the prompt it continues, the tests, the check."""
    return f"{prompt}{completion}\n\n{target['tests']}\n\ncheck({target['entry_point']})\n"


def test_parts(prompt: str, completion: str, target: dict[str, Any]) -> tuple[str, str]:
    """``(candidate, tests)``: the code under test and the tests that judge it, run apart."""
    return f"{prompt}{completion}", f"{target['tests']}\n\ncheck({target['entry_point']})\n"


def trusted_code(source: str) -> str:
    """``source`` when it compiles as Python (it may then run in the tests' process), else
    ``""`` (a prompt in words defines no helper)."""
    try:
        compile(source, "<prompt>", "exec")
    except (SyntaxError, ValueError):
        return ""
    return source


class PythonTestsScorer:
    """Scores 1.0 when the completion passes the item's tests in the sandbox, 0.0 when it
    fails (error, timeout, memory, crash), and leaves it unscored when no sandbox can start.

    Run options (:meth:`configure`): ``unsafe_host_exec`` runs on the host with rlimits only
    (``sandbox: none`` in the identity and every score).
    """

    def __init__(
        self,
        cpu_s: float = 5.0,
        wall_s: float = 20.0,
        memory_mb: int = 512,
        workers: int | None = None,
        bwrap: str | None = None,
        helpers: str = HELPERS_PROMPT,
    ) -> None:
        from seebench.sandbox import Limits

        if helpers not in (HELPERS_PROMPT, HELPERS_COMPLETION):
            raise ValueError(f"python_tests option helpers={helpers!r} is not prompt/completion")
        self.helpers = helpers
        self.limits = Limits(cpu_s=cpu_s, wall_s=wall_s, memory_mb=memory_mb)
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self.bwrap = bwrap
        self.unsafe_host_exec = False
        self._sandbox: Any = None
        self._lock = threading.Lock()

    def configure(self, run_options: dict[str, Any]) -> None:
        """Take the run's ``unsafe_host_exec`` (the ``--unsafe-host-exec`` flag)."""
        self.unsafe_host_exec = bool(run_options.get("unsafe_host_exec", False))

    def sandbox_facts(self) -> dict[str, Any]:
        """The mechanism that will run the tests (``none``, ``unavailable`` or a bwrap one)."""
        if self.unsafe_host_exec:
            return {"sandbox": SANDBOX_NONE}
        from seebench.sandbox import SandboxUnavailable, detect

        try:
            mechanism = detect(self.bwrap)
        except SandboxUnavailable as error:
            return {"sandbox": SANDBOX_UNAVAILABLE, "sandbox_reason": str(error)}
        return {"sandbox": mechanism.name, "bwrap_version": mechanism.bwrap_version}

    def identity(self) -> dict[str, Any]:
        return {
            **self.sandbox_facts(),
            "limits": self.limits.as_dict(),
            "python": platform.python_version(),
            "helpers": self.helpers,
            "isolation": "separate-process, fresh candidate interpreter",
        }

    def _open(self) -> Any:
        with self._lock:
            if self._sandbox is None:
                from seebench.sandbox import open_sandbox

                self._sandbox = open_sandbox(
                    workers=self.workers, bwrap=self.bwrap, unsafe_host_exec=self.unsafe_host_exec
                )
            return self._sandbox

    def score(self, sample: Any, prediction: Any, context: ScoreContext) -> Score:
        return self.score_many([(sample, prediction)], context)[0]

    def score_many(self, items: Sequence[tuple[Any, Any]], context: ScoreContext) -> list[Score]:
        """Score ``(sample, prediction)`` pairs, running them on all workers at once."""
        scores: list[Score | None] = [None] * len(items)
        runnable: list[int] = []
        for position, (_, prediction) in enumerate(items):
            if isinstance(prediction, str) and prediction.strip():
                runnable.append(position)
            else:
                scores[position] = Score(
                    0.0,
                    explanation="failed: no code to run (invalid answer)",
                    metadata={"verdict": "failed", "sandbox_verdict": "no_code"},
                )
        if runnable:
            sandbox = self._open()
            if not sandbox.available:
                reason = f"sandbox_unavailable: {sandbox.reason}"
                for position in runnable:
                    metadata = {"verdict": "infra_error", "sandbox_verdict": "sandbox_unavailable"}
                    metadata["sandbox"] = SANDBOX_UNAVAILABLE
                    scores[position] = Score(None, explanation=reason, metadata=metadata)
            else:
                results, attempts = self._run_with_retries(sandbox, [items[p] for p in runnable])
                for position, result, tries in zip(runnable, results, attempts, strict=True):
                    scores[position] = self._score_of(items[position], result, context, tries)
        return [s for s in scores if s is not None]

    def _run_with_retries(
        self, sandbox: Any, items: Sequence[tuple[Any, Any]]
    ) -> tuple[list[Any], list[int]]:
        """Every item's sandbox result and how many runs it took: a run the infrastructure
        failed (``infra_error``) is run again, at most :data:`INFRA_RETRIES` more times."""
        from seebench.sandbox import SandboxRequest

        requests = [
            SandboxRequest(program=self._function_test(*item), limits=self.limits) for item in items
        ]
        results = list(sandbox.run_many(requests))
        attempts = [1] * len(items)
        for _ in range(INFRA_RETRIES):
            again = [i for i, r in enumerate(results) if from_sandbox(r.verdict) == "infra_error"]
            if not again:
                break
            for index, result in zip(
                again, sandbox.run_many([requests[i] for i in again]), strict=True
            ):
                results[index] = result
                attempts[index] += 1
        return results, attempts

    def _function_test(self, sample: Any, prediction: str) -> Any:
        """The :class:`~seebench.sandbox.FunctionTest` that judges one sample."""
        from seebench.sandbox import FunctionTest

        candidate, tests = self._parts(sample, prediction)
        return FunctionTest(
            candidate,
            tests,
            prompt=self._trusted(sample),
            from_candidate=(str(sample.target["entry_point"]),),
        )

    def _trusted(self, sample: Any) -> str:
        """The code run in the tests' process before the tests: the prompt (when it is code
        and ``helpers`` is ``prompt``), else nothing (every name the tests read comes from
        the candidate, as in the original HumanEval script)."""
        if self.helpers == HELPERS_COMPLETION:
            return ""
        return trusted_code(str(sample.input))

    def _parts(self, sample: Any, prediction: str) -> tuple[str, str]:
        """``(candidate, tests)`` of one sample: run in two processes (``FunctionTest``)."""
        return test_parts(str(sample.input), prediction, sample.target)

    def _program(self, sample: Any, prediction: str) -> str:
        candidate, tests = self._parts(sample, prediction)
        return f"{candidate}\n\n# --- tests (run in a separate process) ---\n{tests}"

    def _score_of(
        self, item: tuple[Any, Any], result: Any, context: ScoreContext, attempts: int = 1
    ) -> Score:
        sample, prediction = item
        log = self._write_log(context.artifacts, sample, prediction, result)
        verdict = from_sandbox(result.verdict)
        metadata = {
            "verdict": verdict,
            "sandbox_verdict": result.verdict,
            "attempts": attempts,
            "sandbox": result.mechanism or SANDBOX_UNAVAILABLE,
            "isolation": result.isolation,
            "exit_code": result.exit_code,
            "cpu_s": round(result.cpu_s, 4),
            "wall_s": round(result.wall_s, 4),
            "stdout": _clip(result.stdout),
            "stderr": _clip(result.stderr),
            "log": log,
        }
        explanation = None if result.passed else f"{result.verdict}: {result.reason}"
        return Score(score_value(verdict), explanation=explanation, metadata=metadata)

    def _write_log(self, artifacts: Path, sample: Any, prediction: str, result: Any) -> str:
        """Write the program and the full sandbox result; return the log's path in artifacts."""
        name = f"python_tests/{sample.id}-{stable_hash(prediction, 8)}.json"
        path = artifacts / name
        path.parent.mkdir(parents=True, exist_ok=True)
        candidate, tests = self._parts(sample, prediction)
        entry = {
            "sample_id": sample.id,
            "program": self._program(sample, prediction),
            "candidate": candidate,
            "tests": tests,
            "trusted_prompt": self._trusted(sample),
            "isolation": result.isolation,
            "limits": self.limits.as_dict(),
            "result": result.as_dict(),
        }
        safe_files.atomic_write_text(path, json.dumps(entry, ensure_ascii=False, indent=1))
        return name

    def close(self) -> None:
        """Stop the sandbox workers (called when the unit is scored)."""
        with self._lock:
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None
