"""The ``copilot_test`` task type: write a pytest test file for a focal function (§3.4).

Input: the focal definition's file (signature, docstring and body: HumanEval's prompt with its
canonical solution, RealHumanEval's solution). Target: ``entry_point, solution, tests`` (the
item's hidden tests, a script that raises when it fails). An answer is a pytest file that is
appended to the focal file, as the paper does, and run in the sandbox (:mod:`.scorer`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.scoring.code_answer import parse_code_reply
from seebench.suites.copilot.generate.types import check_item_target
from seebench.suites.copilot.scenario import ScenarioType
from seebench.tasks.types import CODE, AnswerFormat, ParsedAnswer

if TYPE_CHECKING:
    from seebench.data.dataset import Sample
    from seebench.tasks.spec import TaskSpec

TARGET_KEYS = ("entry_point", "solution", "tests")


def test_target(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Function items (see :mod:`seebench.suites.copilot.generate.items`) as test rows."""
    out = []
    for row in rows:
        text = f"Focal function: {row['entry_point']}\n\n```python\n{row['solution']}```"
        target = {key: row[key] for key in TARGET_KEYS}
        out.append({**row, "input": text, "target": target})
    return out


def hidden_tests_as_pytest(tests: str) -> str:
    """The item's hidden tests as a pytest file (the oracle answer): one test that runs the
    test script in a copy of the module's namespace, so it sees the focal definition."""
    return (
        f"_HIDDEN_TESTS = {tests!r}\n\n\n"
        "def test_hidden_tests():\n"
        '    exec(compile(_HIDDEN_TESTS, "<hidden tests>", "exec"), dict(globals()))\n'
    )


class TestgenType(ScenarioType):
    """Generated tests judged in the sandbox: pass, traced call, mutants killed."""

    __test__ = False  # not a pytest class, whatever its name
    target_kind = CODE
    default_metrics = ("pass_rate",)
    default_scorers = ("copilot_test_run",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        return check_item_target(task, value, TARGET_KEYS)

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        return {"focal_definitions": len(targets)}

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        return AnswerFormat(
            "Tests",
            "test",
            "test generation",
            "Reply with a pytest test file for the focal function, in one ```python fenced "
            "block and nothing else. The file is appended to the end of the module shown, so "
            "the function is already defined there: do not import it.",
            768,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        return f"```python\n{hidden_tests_as_pytest(target['tests'])}```"

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return parse_code_reply(text)

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        raise SeebenchError(f"task {task.name!r}: generated tests have no majority answer")

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        raise SeebenchError(f"task {task.name!r}: generated tests have no random answer")

    def null_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """An empty test file."""
        return ""

    def oracle_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The item's hidden tests turned into a pytest file (the ceiling by definition)."""
        return hidden_tests_as_pytest(sample.target["tests"])
