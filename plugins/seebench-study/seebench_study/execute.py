"""Run and Submit: a participant's code in seebench's sandbox.

Run executes the code as it is and shows its output; Submit runs the task's hidden tests in a
separate process against the code and passes only when the tests return normally.
"""

from __future__ import annotations

import ast
import re
import threading
from dataclasses import dataclass
from typing import Any

from seebench_study.definition import StudyTask

#: Characters of output shown to the participant (and logged).
OUTPUT_CHARS = 4000


@dataclass(frozen=True)
class Outcome:
    passed: bool
    output: str


#: A frame of the sandbox's own code: its File line, its source line and the carets under it.
_HARNESS_FRAME = re.compile(
    r'  File "/opt/seebench/[^"]*", line \d+, in [^\n]+\n(    .*\n)?([ \t]*[\^~]+[ \t]*\n)?'
)


def participant_traceback(stderr: str) -> str:
    """``stderr`` as the participant should see it: the sandbox's own frames left out and
    the program called ``main.py``."""
    stderr = _HARNESS_FRAME.sub("", stderr)
    return stderr.replace('File "/sandbox/run/main.py"', 'File "main.py"')


def _is_stub(body: list[ast.stmt]) -> bool:
    """A body with nothing but a docstring, ``pass``, ``...`` or ``raise NotImplementedError``."""
    for statement in body:
        if isinstance(statement, ast.Pass):
            continue
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # a docstring or a bare ``...``
        if isinstance(statement, ast.Raise) and "NotImplementedError" in ast.unparse(statement):
            continue
        return False
    return True


def trusted_starter(starter: str) -> tuple[str, tuple[str, ...]]:
    """(trusted code, names taken from the participant) for Submit.

    The starter is the study's own code: the helpers it defines in full are bound from it in
    the tests' process, so a program that redefines a helper the tests call cannot change
    what the tests check; the functions and classes it leaves as stubs are what the
    participant writes, and only those (and names the starter does not define) come from the
    participant's program. A starter that does not parse is not trusted at all.
    """
    try:
        tree = ast.parse(starter)
    except SyntaxError:
        return "", ()
    stubs = tuple(
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and (isinstance(node, ast.ClassDef) or _is_stub(node.body))
    )
    return starter, stubs


def _clip(text: str) -> str:
    return text if len(text) <= OUTPUT_CHARS else text[:OUTPUT_CHARS] + "\n...[output cut]"


class CodeRunner:
    """A pool of warm sandboxes opened on first use; thread-safe."""

    def __init__(
        self, limits: dict[str, Any], workers: int = 2, unsafe_host_exec: bool = False
    ) -> None:
        self.limits = limits
        self.workers = workers
        self.unsafe_host_exec = unsafe_host_exec
        self._sandbox: Any = None
        self._lock = threading.Lock()

    def sandbox(self) -> Any:
        with self._lock:
            if self._sandbox is None:
                from seebench.sandbox import open_sandbox

                self._sandbox = open_sandbox(
                    workers=self.workers, unsafe_host_exec=self.unsafe_host_exec
                )
            return self._sandbox

    def execute(self, task: StudyTask, code: str, mode: str) -> Outcome:
        """``mode`` is ``run`` (the code alone) or ``submit`` (the code and the hidden tests)."""
        from seebench.sandbox import Limits, PythonProgram, SandboxRequest

        sandbox = self.sandbox()
        if not sandbox.available:
            return Outcome(False, f"Code cannot run here: {sandbox.reason}")
        # Submit: the hidden tests run in a process of their own, apart from the participant's
        # code (plain data between them), so the code cannot forge a pass
        program = (
            PythonProgram(code, require_completion=False)
            if mode == "run"
            else _submission(task, code)
        )
        request = SandboxRequest(program=program, limits=Limits(**self.limits))
        result = sandbox.run(request)
        output = result.stdout
        if not result.passed:
            output += participant_traceback(result.stderr)
            if result.verdict != "failed":
                output += f"\n[{result.verdict}] {result.reason}"
        if mode == "submit":
            output = "All tests passed." if result.passed else output
        return Outcome(result.passed, _clip(output.strip()))

    def close(self) -> None:
        with self._lock:
            if self._sandbox is not None:
                self._sandbox.close()
                self._sandbox = None


def _submission(task: StudyTask, code: str) -> Any:
    """Submit's program: the hidden tests apart from the code, the starter's helpers trusted."""
    from seebench.sandbox import FunctionTest

    prompt, from_candidate = trusted_starter(task.starter)
    return FunctionTest(code, task.tests, prompt=prompt, from_candidate=from_candidate)
