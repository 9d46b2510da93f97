"""The ``code`` task type: the model writes code for the input, tests decide.

The input is the start of a Python program (HumanEval: a function signature and its
docstring); the target is a record of what judges an answer::

    {"entry_point": "has_close_elements", "tests": "def check(candidate): ...",
     "reference": "    for idx, elem in ..."}

``reference`` (a known-good completion) is optional. An answer is the code that continues the
input; a scorer that runs tests (``python_tests``) scores it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.scoring.code_answer import parse_code_reply
from seebench.tasks.types import CODE, AnswerFormat, ParsedAnswer, TaskType

if TYPE_CHECKING:
    from seebench.tasks.spec import TaskSpec

IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _data_error(message: str) -> Exception:
    from seebench.data.dataset import DataError

    return DataError(message)


class CodeType(TaskType):
    """Code completion judged by tests; targets are ``{entry_point, tests, reference}``."""

    target_kind = CODE
    default_metrics = ("pass_rate",)
    default_scorers = ("python_tests",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        where = f"task {task.name!r}"
        if not isinstance(value, dict):
            raise _data_error(
                f"{where}: a code target is a record {{entry_point, tests, reference}}, "
                f"got {type(value).__name__} (use the 'code_target' prepare step)"
            )
        unknown = sorted(set(value) - {"entry_point", "tests", "reference"})
        if unknown:
            raise _data_error(f"{where}: unknown key(s) {unknown} in a code target")
        entry, tests = value.get("entry_point"), value.get("tests")
        if not isinstance(entry, str) or not IDENTIFIER.match(entry):
            raise _data_error(f"{where}: entry_point {entry!r} is not a Python identifier")
        if not isinstance(tests, str) or not tests.strip():
            raise _data_error(f"{where}: the tests of {entry!r} are empty or not text")
        reference = value.get("reference")
        if reference is not None and not isinstance(reference, str):
            raise _data_error(f"{where}: the reference of {entry!r} is not text")
        return {"entry_point": entry, "tests": tests, "reference": reference}

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        return {
            "problems": len(targets),
            "with_reference": sum(1 for t in targets if t.get("reference") is not None),
        }

    def split_description(self, task: TaskSpec) -> str:
        return "random hold-out (code tasks are usually evaluation-only: split method none)"

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        return AnswerFormat(
            "Completion",
            "complete",
            "code completion",
            "Reply with the Python code that completes the function above (its indented body, or "
            "the whole function), in one ```python fenced block and nothing else.",
            512,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        return f"```python\n{target.get('reference') or ''}```"

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return parse_code_reply(text)

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        raise SeebenchError(f"task {task.name!r}: code tasks have no majority answer")

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        raise SeebenchError(f"task {task.name!r}: code tasks have no random answer")


def code_target(
    rows: list[dict[str, Any]],
    *,
    entry_point: str = "entry_point",
    tests: str = "test",
    reference: str | None = "canonical_solution",
    column: str = "target",
) -> list[dict[str, Any]]:
    """Pack a code task's entry point, tests and (optional) reference solution into one target."""
    out = []
    for number, row in enumerate(rows):
        missing = [c for c in (entry_point, tests) if c not in row]
        if missing:
            raise KeyError(f"row {number} has no column {missing[0]!r} (columns: {sorted(row)})")
        packed = {
            "entry_point": row[entry_point],
            "tests": row[tests],
            "reference": row.get(reference) if reference else None,
        }
        out.append({**row, column: packed})
    return out
