"""The ``copilot_doc`` task type: document one function of a real file.

The input is the focal function (signature and body, without any doc comment it had) followed
by its whole file as context; the answer is the same function with a doc comment added, as
one fenced code block. The target is the case record of :mod:`.cases`. The ``null`` answer is
the function unchanged; the ``oracle`` answer is the function with the doc comment the
upstream file gave it (none when the file had none).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.suites.copilot.languages import ALIASES, canonical_language
from seebench.suites.copilot.scenario import ScenarioType
from seebench.tasks.types import CODE, AnswerFormat, ParsedAnswer

if TYPE_CHECKING:
    from seebench.data.dataset import Sample
    from seebench.tasks.spec import TaskSpec

FENCE = re.compile(
    r"^[ \t]*```[ \t]*([A-Za-z0-9_+#.-]*)[ \t]*\n(.*?)^[ \t]*```[ \t]*$", re.M | re.S
)
OPENING_FENCE = re.compile(r"^[ \t]*```", re.M)
#: the language's display name in prompts
DISPLAY = {
    "python": "Python",
    "javascript": "JavaScript",
    "typescript": "TypeScript",
    "java": "Java",
    "csharp": "C#",
    "cpp": "C++",
}
CONVENTION_HINT = {
    "python": "a docstring as the first statement of the function body",
    "javascript": "a JSDoc /** */ comment right above the function, with @param and @returns",
    "typescript": "a TSDoc /** */ comment right above the function, with @param and @returns",
    "java": "a Javadoc /** */ comment right above the method, with @param and @return",
    "csharp": "/// XML documentation lines right above the method (<summary>, <param>, <returns>)",
    "cpp": "a Doxygen /** */ comment right above the function, with @brief, @param and @return",
}


def language_of(task: TaskSpec) -> str:
    """The task's language (its ``language`` key)."""
    return canonical_language(str(task.raw.get("language", "")))


def fence_names(language: str) -> set[str]:
    """The fence labels an answer in ``language`` may carry ("" included)."""
    names = {"", language, *(alias for alias, name in ALIASES.items() if name == language)}
    if language == "typescript":
        names |= {"tsx"}
    if language == "javascript":
        names |= {"jsx"}
    if language == "cpp":
        names |= {"c", "cc", "cxx", "hpp", "h"}
    return names


def parse_fenced_code(text: str, language: str) -> ParsedAnswer:
    """The code of the one fenced block in a reply (the whole reply when it has no fence),
    indentation kept. Several blocks, a block in another language or an unclosed fence are
    errors, never a guess."""
    if not text.strip():
        return ParsedAnswer(None, "empty reply")
    blocks = FENCE.findall(text)
    fences = len(OPENING_FENCE.findall(text))
    if not blocks:
        if fences:
            return ParsedAnswer(None, "unclosed code block (reply cut off?)")
        return ParsedAnswer(text.strip("\n"))
    if fences != 2 * len(blocks):
        return ParsedAnswer(None, "unclosed code block (reply cut off?)")
    if len(blocks) > 1:
        return ParsedAnswer(None, f"{len(blocks)} code blocks; expected one")
    label, code = blocks[0]
    if label.lower() not in fence_names(language):
        return ParsedAnswer(None, f"code block in {label!r}; expected {language}")
    if not code.strip():
        return ParsedAnswer(None, "empty code block")
    return ParsedAnswer(code.rstrip("\n"))


class DocType(ScenarioType):
    """Doc generation for one function; targets are case records (see :mod:`.cases`)."""

    target_kind = CODE
    default_metrics = ("doc_pass_rate",)
    default_scorers = ("copilot_doc",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        from seebench.data.dataset import DataError

        if not isinstance(value, dict) or "case_id" not in value:
            raise DataError(
                f"task {task.name!r}: a doc target is a case record (copilot_doc reader)"
            )
        if value.get("excluded"):
            return value
        missing = [
            k
            for k in ("file", "start", "end", "indent", "name", "function", "reference")
            if k not in value
        ]
        if missing:
            raise DataError(f"task {task.name!r}: case {value['case_id']} lacks {missing}")
        return value

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        return {
            "cases": len(targets),
            "excluded": sum(1 for t in targets if t.get("excluded")),
            "with_oracle": sum(1 for t in targets if t.get("oracle") is not None),
        }

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        language = language_of(task)
        return AnswerFormat(
            "Documented function",
            "document",
            "documentation",
            f"Reply with the whole function, exactly as given, with {CONVENTION_HINT[language]} "
            "added: say what the function does, describe every parameter and, if it returns "
            f"a value, what it returns. Do not change the code itself. Put it in one ```"
            f"{language} fenced block and write nothing else.",
            1024,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        return (
            f"```{language_of(task)}\n{target.get('oracle') or target.get('function') or ''}\n```"
        )

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return parse_fenced_code(text, language_of(task))

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        raise SeebenchError(f"task {task.name!r}: doc tasks have no majority answer")

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        raise SeebenchError(f"task {task.name!r}: doc tasks have no random answer")

    def null_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The function unchanged (as the model was shown it)."""
        return sample.target.get("function")

    def oracle_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The function with its upstream doc comment; ``None`` where the file had none."""
        return sample.target.get("oracle")
