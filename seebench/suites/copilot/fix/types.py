"""The ``copilot_fix`` task type, its prompt input and the ``copilot_fix_reproducible`` step.

A sample's input is the whole file (with its path) plus the diagnostic; the answer is the
whole fixed file in one fenced block. The target records what judges an answer::

    {"case_id": "case-0", "analyzer": "pylint", "rule": "undefined-variable",
     "message": "Undefined variable 'unicode'", "line": 784, "language": "python",
     "file_name": "six.py", "original": "<the file>", "warnings": 12}

The null answer is the original file (nothing fixed); the data holds no fixed files, so there
is no oracle answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError
from seebench.suites.copilot.scenario import ScenarioType
from seebench.tasks.types import CODE, AnswerFormat, ParsedAnswer

if TYPE_CHECKING:
    from seebench.data.dataset import Sample
    from seebench.tasks.spec import TaskSpec

FENCE = re.compile(r"^```[ \t]*([A-Za-z0-9_+.#-]*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
OPENING_FENCE = re.compile(r"^```", re.M)
#: fence tags accepted (the scorer parses the file in the case's own language anyway)
FENCE_TAGS = {"", "python", "py", "python3", "javascript", "js", "jsx", "node", "typescript", "ts"}
TARGET_KEYS = {
    "case_id": str,
    "analyzer": str,
    "rule": str,
    "message": str,
    "line": int,
    "language": str,
    "file_name": str,
    "original": str,
    "warnings": int,
}


def parse_file_reply(text: str) -> ParsedAnswer:
    """The file in a reply: the content of its one fenced block (the whole reply when it has
    no fence). Several blocks, a block in another language or an unclosed fence are errors."""
    if not text.strip():
        return ParsedAnswer(None, "empty reply")
    blocks = FENCE.findall(text)
    fences = len(OPENING_FENCE.findall(text))
    if not blocks:
        return (
            ParsedAnswer(None, "unclosed code block (reply cut off?)")
            if fences
            else (ParsedAnswer(text))
        )
    if fences != 2 * len(blocks):
        return ParsedAnswer(None, "unclosed code block (reply cut off?)")
    if len(blocks) > 1:
        return ParsedAnswer(None, f"{len(blocks)} code blocks; expected one")
    fence_language, code = blocks[0]
    if fence_language.lower() not in FENCE_TAGS:
        return ParsedAnswer(None, f"code block in {fence_language!r}; expected python, js or ts")
    if not code.strip():
        return ParsedAnswer(None, "empty code block")
    return ParsedAnswer(code)


def prompt_input(row: dict[str, Any], line: int) -> str:
    """The model's input: the file with its path, then the diagnostic to fix."""
    body = row["file"] if row["file"].endswith("\n") else row["file"] + "\n"
    return (
        f"File {row['file_path']} ({row['language']}):\n```{row['language']}\n{body}```\n"
        f"Diagnostic: {row['analyzer']} reports {row['rule']} at line {line}: {row['message']}"
    )


def copilot_fix_reproducible(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Prepare step: keep the cases whose target warning reproduces on the file alone, and
    give each its ``input`` (the prompt) and ``target``. The others are dropped here and
    listed by ``seebench copilot fix-cases``."""
    from seebench.suites.copilot.fix.analyzers import analyzer
    from seebench.suites.copilot.fix.reproduce import case_verdicts

    out = []
    by_analyzer: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_analyzer.setdefault(row["analyzer"], []).append(row)
    for name, group in by_analyzer.items():
        verdicts = case_verdicts(group)
        failed = [v for v in verdicts if v.verdict == "analyzer_error"]
        if failed and len(failed) == sum(1 for r in group if r.get("file") is not None):
            analyzer(name).check_installed()  # a missing tool: MissingToolError, unit skipped
            raise SeebenchError(f"{name} could analyse no case: {failed[0].reason}")
        for row, verdict in zip(group, verdicts, strict=True):
            if verdict.verdict != "reproduced":
                continue
            assert verdict.line is not None and verdict.warnings is not None
            target = {
                "case_id": row["case_id"],
                "analyzer": row["analyzer"],
                "rule": row["rule"],
                "message": row["message"],
                "line": verdict.line,
                "language": row["language"],
                "file_name": row["file_path"],
                "original": row["file"],
                "warnings": verdict.warnings,
            }
            clean = {k: v for k, v in row.items() if k not in ("file", "file_error")}
            out.append({**clean, "input": prompt_input(row, verdict.line), "target": target})
    return out


def _data_error(message: str) -> Exception:
    from seebench.data.dataset import DataError

    return DataError(message)


class FixType(ScenarioType):
    """Fix one analyzer warning in a whole file; the analyzer in the sandbox judges."""

    target_kind = CODE
    default_metrics = ("fix_rate",)
    default_scorers = ("copilot_fix",)

    def normalise_target(self, task: TaskSpec, value: Any) -> dict[str, Any]:
        where = f"task {task.name!r}"
        if not isinstance(value, dict):
            raise _data_error(f"{where}: a fix target is a record, got {type(value).__name__}")
        for key, kind in TARGET_KEYS.items():
            if not isinstance(value.get(key), kind):
                raise _data_error(f"{where}: fix target key {key!r} is missing or not {kind}")
        return {key: value[key] for key in TARGET_KEYS}

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any]:
        rules: dict[str, int] = {}
        for target in targets:
            rules[target["rule"]] = rules.get(target["rule"], 0) + 1
        return {"cases": len(targets), "rules": dict(sorted(rules.items()))}

    def answer_format(self, task: TaskSpec) -> AnswerFormat:
        return AnswerFormat(
            "Fixed file",
            "fix",
            "static-analysis fix",
            "Reply with the whole file, with the diagnostic fixed and nothing else changed "
            "needlessly, in one fenced code block and nothing else.",
            4096,
        )

    def format_target(self, task: TaskSpec, target: Any) -> str:
        raise SeebenchError(f"task {task.name!r}: fix cases have no solved example (no oracle)")

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return parse_file_reply(text)

    def majority(self, task: TaskSpec, targets: Sequence[Any]) -> Any:
        raise SeebenchError(f"task {task.name!r}: fix tasks have no majority answer")

    def random_answer(self, task: TaskSpec, targets: Sequence[Any], key: str) -> Any:
        raise SeebenchError(f"task {task.name!r}: fix tasks have no random answer")

    def null_answer(self, task: TaskSpec, sample: Sample) -> Any:
        return sample.target["original"]

    def oracle_answer(self, task: TaskSpec, sample: Sample) -> Any:
        return None

    def no_oracle(self, task: TaskSpec) -> str | None:
        return "the fix cases carry no fixed file, so there is no oracle answer"
