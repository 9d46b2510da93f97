"""``comment_line``: a rule-based reference edit, the classic naive "fix" of a warning.

It comments out the flagged line (``# `` in Python, ``// `` in JavaScript and TypeScript,
after the line's indentation) and changes nothing else. It is not a language model: it
shows how a rule that silences a warning without understanding it fares under the
file-level and repository-level rules, and produces the real edits on which the two rules
can disagree. It answers every ``copilot_fix`` and ``copilot_repo_fix`` item.
"""

from __future__ import annotations

from typing import Any

from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef
from seebench.tasks.spec import TaskSpec

RULE = "comment_line"
COMMENT = {"python": "# ", "javascript": "// ", "typescript": "// "}
TASK_TYPES = ("copilot_fix", "copilot_repo_fix")


def comment_out(text: str, line: int, language: str) -> str | None:
    """``text`` with its 1-based ``line`` commented out; ``None`` when there is no such line
    or the language has no line comment here."""
    marker = COMMENT.get(language)
    lines = text.splitlines(keepends=True)
    if marker is None or not 1 <= line <= len(lines):
        return None
    original = lines[line - 1]
    body = original.lstrip(" \t")
    indent = original[: len(original) - len(body)]
    lines[line - 1] = indent + marker + body
    return "".join(lines)


def resolve(spec: str) -> ModelRef:
    """Model resolver for ``comment_line``."""
    return ModelRef(
        spec=spec, id=spec, kind="rule", identity={"rule": "comment out the flagged line"}
    )


class CommentLine:
    """The ``comment_line`` method: each fix item answered with its flagged line commented."""

    name = RULE

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        if model.spec != RULE:  # the model this plugin registers by that name
            return f"the {RULE} method answers for the {RULE!r} model, not {model.spec!r}"
        if task.type not in TASK_TYPES:
            return f"task {task.name!r} is not a fix task"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        predictions = []
        for sample in context.data.test:
            target: dict[str, Any] = sample.target
            edited = comment_out(target["original"], target["line"], target["language"])
            if edited is None:
                error = f"no line {target['line']} to comment out"
                predictions.append(Prediction(sample.id, None, error=error))
            else:
                predictions.append(Prediction(sample.id, edited))
            context.advance(1)
        return MethodOutput(predictions, {"summary": f"{len(predictions)} commented-out lines"})


def comment_line_method() -> CommentLine:
    return CommentLine()
