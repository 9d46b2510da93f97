"""The ``copilot_generate`` task type: write a function (or class) body into its file (§3.3).

Input: the file up to and including the signature (RealHumanEval: the study's starting file
and its task description), the body replaced by a placeholder line. Target: the item (see
:mod:`.items`): ``entry_point, context, placeholder, tests, reference``. An answer is the body
that replaces the placeholder or the whole definition; :mod:`.assembly` puts it in place and
the ``copilot_generate_syntax`` / ``copilot_generate_tests`` scorers judge the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.scoring.code_answer import parse_code_reply
from seebench.suites.copilot.generate.assembly import definition_text
from seebench.suites.copilot.scenario import ScenarioType
from seebench.tasks.types import CODE, AnswerFormat, ParsedAnswer

if TYPE_CHECKING:
    from seebench.data.dataset import Sample
    from seebench.tasks.spec import TaskSpec

#: the keys of a generate target (``placeholder`` may be null)
TARGET_KEYS = ("entry_point", "context", "placeholder", "tests", "reference")


def _data_error(message: str) -> Exception:
    from seebench.data.dataset import DataError

    return DataError(message)


def check_item_target(task: TaskSpec, value: Any, keys: Sequence[str]) -> dict[str, Any]:
    """``value`` as a target with exactly ``keys`` (text values; ``placeholder`` may be null);
    anything else is a one-line data error naming the key."""
    where = f"task {task.name!r}"
    if not isinstance(value, dict):
        raise _data_error(
            f"{where}: a target is a record {{{', '.join(keys)}}}, got {type(value).__name__}"
        )
    for key in keys:
        item = value.get(key)
        if item is None and key == "placeholder":
            continue
        if not isinstance(item, str) or (key != "placeholder" and not item.strip()):
            raise _data_error(f"{where}: target key {key!r} is missing, empty or not text")
    unknown = sorted(set(value) - set(keys))
    if unknown:
        raise _data_error(f"{where}: unknown target key(s) {unknown}")
    return {key: value.get(key) for key in keys}


def generate_target(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Items (see :mod:`.items`) as generate rows: ``input`` is what the model sees (the task
    description, if any, then the file), ``target`` what judges the answer."""
    out = []
    for row in rows:
        shown = f"```python\n{row['context']}```"
        text = f"{row['description']}\n\n{shown}" if row.get("description") else shown
        target = {key: row.get(key) for key in TARGET_KEYS}
        out.append({**row, "input": text, "target": target})
    return out


class GenerateType(ScenarioType):
    """Generated function bodies judged by a parser and the item's hidden tests."""

    target_kind = CODE
    default_metrics = ("pass_rate",)
    default_scorers = ("copilot_generate_tests",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        return check_item_target(task, value, TARGET_KEYS)

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        return {
            "problems": len(targets),
            "with_placeholder": sum(1 for t in targets if t.get("placeholder")),
        }

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        return AnswerFormat(
            "Code",
            "complete",
            "code generation",
            "Reply with the Python code that replaces the placeholder line (the body alone) or "
            "with the whole definition of the function or class, in one ```python fenced "
            "block and nothing else.",
            768,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        return f"```python\n{target.get('reference') or ''}```"

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return parse_code_reply(text)

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        raise SeebenchError(f"task {task.name!r}: generated code has no majority answer")

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        raise SeebenchError(f"task {task.name!r}: generated code has no random answer")

    def null_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The definition as shown, placeholder body unchanged."""
        return definition_text(sample.target) or None

    def oracle_answer(self, task: TaskSpec, sample: Sample) -> Any:
        """The canonical solution (HumanEval: the body; RealHumanEval: the solution file)."""
        return sample.target["reference"]
