"""The ``copilot_repo_test`` task type: write a unit test for a method of a real repository.

Input: the repository, the focal file's path, where the test will go, the file's first lines
and the focal method (with its enclosing class line). Target: where the case lives::

    {"case_id", "repo", "commit", "language", "file_path", "method", "first_line",
     "last_line", "tar_sha256", "module", "unavailable"}

``unavailable`` is the reason the focal file could not be read from the data ("" when it
was); such an item is excluded at scoring time, counted, never scored as a model failure.
The answer is a test file, judged in the repository by :mod:`.scorer`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.scoring.code_answer import parse_code_reply
from seebench.suites.copilot.repo_testgen.placement import python_test_path
from seebench.suites.copilot.scenario import ScenarioType
from seebench.tasks.types import CODE, AnswerFormat, ParsedAnswer

if TYPE_CHECKING:
    from seebench.data.dataset import Sample
    from seebench.tasks.spec import TaskSpec

TARGET_KEYS = (
    "case_id",
    "repo",
    "commit",
    "language",
    "file_path",
    "method",
    "first_line",
    "last_line",
    "tar_sha256",
    "module",
    "unavailable",
)
FENCE_NAMES = {
    "python": ("", "python", "py", "python3"),
    "javascript": ("", "javascript", "js", "jsx"),
    "typescript": ("", "typescript", "ts", "tsx", "javascript", "js"),
}
HEADER_LINES = 30


def _enclosing_class(lines: list[str], first: int) -> str | None:
    """The nearest ``class`` line above line ``first`` that is less indented than it."""
    if first - 1 >= len(lines):
        return None
    focal = lines[first - 1]
    indent = len(focal) - len(focal.lstrip())
    for line in reversed(lines[: first - 1]):
        stripped = line.lstrip()
        if not stripped:
            continue
        own = len(line) - len(stripped)
        if own < indent and re.match(r"(export\s+)?(default\s+)?(abstract\s+)?class\s", stripped):
            return line.rstrip()
        if own == 0 and indent > 0 and not stripped.startswith(("@", "#", "//", "*", "/*")):
            return None
    return None


def focal_excerpt(text: str, first: int, last: int) -> str:
    """The focal file's first lines, its enclosing class line and the focal method."""
    lines = text.splitlines()
    head = lines[: min(HEADER_LINES, first - 1)]
    parts = ["\n".join(head)] if head else []
    if first - 1 > len(head):
        parts.append("# ... (lines omitted) ...")
        owner = _enclosing_class(lines, first)
        if owner:
            parts.append(owner)
    parts.append("\n".join(lines[first - 1 : last]))
    return "\n".join(parts)


def _placement_note(row: dict[str, Any]) -> str:
    if row["language"] == "python":
        test_path = python_test_path(row["file_path"], row["method"])
        return (
            f"Your test file is saved as {test_path} (next to the focal file) and run with "
            f"pytest from the repository root; import the focal module as `{row['module']}`."
        )
    return (
        f"Your tests are appended to the end of {row['file_path']} and that file is run with "
        "the repository's test runner (jest or mocha: `describe`, `it` and the assertion "
        "library the repository's own tests use); the file's definitions are in scope."
    )


def repo_test_items(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Prepare step ``copilot_repo_test_items``: the read cases as rows with ``input`` and
    ``target`` (a case whose focal file could not be read keeps its snippet as the input and
    the reason in ``target.unavailable``)."""
    out = []
    for row in rows:
        text = row.get("file")
        if isinstance(text, str):
            code = focal_excerpt(text, row["first_line"], row["last_line"])
        else:
            code = row["snippet"].strip("\n")
        fence = {"python": "python", "javascript": "javascript"}.get(row["language"], "typescript")
        prompt = (
            f"Repository: {row['repo']}\nFocal file: {row['file_path']}\n"
            f"Focal method: {row['method']} (lines {row['first_line']}-{row['last_line']})\n"
            f"{_placement_note(row)}\n\n```{fence}\n{code}\n```"
        )
        target = {key: row.get(key, "") for key in TARGET_KEYS}
        target["unavailable"] = "" if isinstance(text, str) else str(row.get("file_error"))
        out.append({"id": row["case_id"], "input": prompt, "target": target})
    return out


def parse_test_reply(text: str, language: str) -> ParsedAnswer:
    """The test code of a reply: its one fenced block (in ``language``), or the whole reply
    when it has no fence; several blocks or an unclosed fence are errors."""
    return parse_code_reply(text, tuple(FENCE_NAMES[language]), language)


def task_language(task: TaskSpec) -> str:
    """The language of a task's cases (its reader's ``language`` option)."""
    for source in task.data.get("sources", []):
        language = (source.get("options") or {}).get("language")
        if language in FENCE_NAMES:
            return language
    raise SeebenchError(f"task {task.name!r}: its source needs options.language")


class RepoTestType(ScenarioType):
    """Generated tests judged inside the repository: validity, pass and traced focal call."""

    __test__ = False  # not a pytest class, whatever its name
    target_kind = CODE
    default_metrics = ("repo_test_success_rate",)
    default_scorers = ("copilot_repo_test",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise SeebenchError(f"task {task.name!r}: a target is a record, got {value!r:.60}")
        missing = [key for key in TARGET_KEYS if key not in value]
        if missing:
            raise SeebenchError(f"task {task.name!r}: target key(s) {missing} missing")
        for key in ("first_line", "last_line"):
            if not isinstance(value[key], int) or value[key] < 0:
                raise SeebenchError(f"task {task.name!r}: target {key} {value[key]!r} is bad")
        return {key: value[key] for key in TARGET_KEYS}

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        return {
            "focal_methods": len(targets),
            "repositories": len({(t["repo"], t["commit"]) for t in targets}),
            "unavailable": sum(1 for t in targets if t["unavailable"]),
        }

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        language = task_language(task)
        if language == "python":
            how = "a pytest test file, in one ```python fenced block and nothing else"
        else:
            how = (
                f"{language} test code (describe/it blocks) to append to the focal file, in "
                f"one ```{language} fenced block and nothing else"
            )
        return AnswerFormat("Tests", "test", "test generation", f"Reply with {how}.", 1024)

    def format_target(self, task: TaskSpec, target: Any) -> str:
        return f"(tests of {target['method']} in {target['file_path']})"

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return parse_test_reply(text, task_language(task))

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        raise SeebenchError(f"task {task.name!r}: generated tests have no majority answer")

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        raise SeebenchError(f"task {task.name!r}: generated tests have no random answer")

    def null_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """An empty test (the floor)."""
        return ""

    def oracle_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """An existing test module of the repository that covers the focal method in the
        baseline run (see :mod:`.oracle`); ``""`` when the repository is excluded (the scorer
        excludes the item), ``None`` when no passing test covers the method."""
        from seebench.suites.copilot.repo_testgen.oracle import oracle_test

        return oracle_test(sample.target)
