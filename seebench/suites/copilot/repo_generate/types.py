"""The ``copilot_repo_generate`` task type: write a documented method's body inside its
repository (§3.3.2, §4.2.3).

Input: the method's file up to and including its signature and doc comment, the body replaced
by a placeholder line (the last lines within a size limit; see :mod:`.items`). Target: the
item (``slug, language, file, name, context, placeholder, reference, tests, excluded``). An
answer is the body or the whole function; :mod:`.assembly` puts it in place and the
``copilot_repo_generate`` scorer runs the tests that covered the method.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.suites.copilot.doc.types import DISPLAY, language_of, parse_fenced_code
from seebench.suites.copilot.repo_generate.items import TARGET_KEYS
from seebench.suites.copilot.scenario import ScenarioType
from seebench.tasks.types import CODE, AnswerFormat, ParsedAnswer

if TYPE_CHECKING:
    from seebench.data.dataset import Sample
    from seebench.tasks.spec import TaskSpec

TEXT_KEYS = ("slug", "language", "file", "name", "context", "placeholder", "reference")


class RepoGenerateType(ScenarioType):
    """Method bodies written into their repository, judged by the tests that covered them."""

    target_kind = CODE
    default_metrics = ("repo_generate_pass_rate",)
    default_scorers = ("copilot_repo_generate",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        from seebench.data.dataset import DataError

        where = f"task {task.name!r}"
        if not isinstance(value, dict) or set(value) != set(TARGET_KEYS):
            raise DataError(f"{where}: a target has exactly the keys {', '.join(TARGET_KEYS)}")
        for key in TEXT_KEYS:
            if not isinstance(value[key], str):
                raise DataError(f"{where}: target key {key!r} is not text")
        if not isinstance(value["tests"], list) or not value["tests"]:
            raise DataError(f"{where}: target key 'tests' must list the covering tests")
        if value["excluded"] is None and value["placeholder"] + "\n" not in value["context"]:
            raise DataError(f"{where}: the file has no placeholder line for {value['name']}")
        return value

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        return {
            "methods": len(targets),
            "excluded": sum(1 for t in targets if t.get("excluded")),
            "repositories": len({t["slug"] for t in targets}),
            "covering_tests": sum(len(t["tests"]) for t in targets),
        }

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        language = language_of(task)
        return AnswerFormat(
            "Code",
            "complete",
            "code generation",
            f"Reply with the {DISPLAY[language]} code that replaces the placeholder comment "
            "(the body of the function alone), or with the whole function, in one "
            f"```{language} fenced block and nothing else.",
            1024,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        return f"```{language_of(task)}\n{target.get('reference') or ''}```"

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return parse_fenced_code(text, language_of(task))

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        raise SeebenchError(f"task {task.name!r}: generated code has no majority answer")

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        raise SeebenchError(f"task {task.name!r}: generated code has no random answer")

    def null_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The placeholder line kept as the body (the file as the model saw it)."""
        return sample.target["placeholder"] or None

    def oracle_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The method's original body."""
        return sample.target["reference"] or None
