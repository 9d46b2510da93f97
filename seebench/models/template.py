"""Building prompts from a task's ``prompt:`` block, after the SELU base template (Fig. 4).

Shared by the methods that prompt a model (``zero-shot``/``3-shot`` generate an answer,
``loglik`` scores each label as the answer). The user message has five parts, in this order: the setting and the task with the expected
answer format, what each label means, worked examples (the stored shots of the test instance),
and the instance to classify or estimate, ending with a cue for the answer. The wording is
seebench's own; only the structure follows the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from seebench.data.dataset import Sample, TaskData, pick_shots
from seebench.errors import SeebenchError
from seebench.models.chat import Prompt
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import AnswerFormat

SEPARATOR = "---"


def _sentence(text: str) -> str:
    text = " ".join(str(text).split())
    return text if not text or text[-1] in ".?!:" else text + "."


def entity_name(task: TaskSpec) -> str:
    return task.prompt.get("entity") or "text"


def answer_format(task: TaskSpec) -> AnswerFormat:
    """How the task's type asks for an answer (raises when the type cannot be prompted)."""
    fmt = task.behaviour.answer_format(task)
    if fmt is None:
        raise SeebenchError(f"task {task.name!r}: {task.type} tasks cannot be prompted")
    return fmt


def answer_name(task: TaskSpec) -> str:
    """What the answer is called in the examples and the final cue."""
    return answer_format(task).noun


def verb(task: TaskSpec) -> str:
    return answer_format(task).verb


def default_answer_format(task: TaskSpec) -> str:
    """An answer-format sentence for tasks whose prompt block does not give one."""
    return answer_format(task).instruction


def format_target(task: TaskSpec, target: Any) -> str:
    """A gold target written the way the model is asked to answer."""
    return task.behaviour.format_target(task, target)


def instruction(task: TaskSpec) -> str:
    """Setting, task and answer format: the opening paragraph of every prompt."""
    block = task.prompt
    parts = []
    if block.get("context"):
        parts.append(f"Setting: {_sentence(block['context'])}")
    what = (
        block.get("task")
        or task.description
        or f"{verb(task).capitalize()} the {entity_name(task)}."
    )
    parts.append(f"Task: {_sentence(what)}")
    parts.append(
        f"Answer format: {_sentence(block.get('answer_format') or default_answer_format(task))}"
    )
    return "\n".join(parts)


def label_definitions(task: TaskSpec) -> str | None:
    """One line per label with its description, unless the task turns them off."""
    if not task.labels:
        return None
    if task.prompt.get("label_definitions", True) is False:
        return f"Possible labels: {', '.join(task.label_names)}."
    lines = ["What each label means:"]
    for label in task.labels:
        lines.append(
            f"- {label.name}: {_sentence(label.description)}"
            if label.description
            else f"- {label.name}"
        )
    return "\n".join(lines)


def examples_section(task: TaskSpec, shots: Sequence[Sample]) -> str | None:
    if not shots:
        return None
    lines = [f"Solved examples of this {answer_format(task).kind} task:"]
    entity, answer = entity_name(task).capitalize(), answer_name(task)
    for number, shot in enumerate(shots, start=1):
        lines += [
            f"Example {number}",
            f"{entity}: {_flatten(shot.input)}",
            f"{answer}: {format_target(task, shot.target)}",
        ]
    return "\n".join(lines)


def _flatten(value: Any) -> str:
    if isinstance(value, list | tuple):
        value = " ".join(map(str, value))
    return str(value).strip()


def _query(task: TaskSpec, sample: Sample) -> str:
    return (
        f"{entity_name(task).capitalize()} to {verb(task)}: {_flatten(sample.input)}\n"
        f"{answer_name(task)}:"
    )


def build_prompt(
    task: TaskSpec, sample: Sample, shots: Sequence[Sample] = (), multiturn: bool = False
) -> Prompt:
    """The messages a model receives for ``sample`` with ``shots`` as worked examples.

    With ``multiturn`` (``-o fewshot_as_multiturn=true``) each shot is a user turn asking for
    its answer and an assistant turn giving it, and the instance to answer is the last user
    turn; otherwise the shots are a section of one user message.
    """
    sections = [instruction(task)]
    definitions = label_definitions(task)
    if definitions:
        sections.append(definitions)
    examples = None if multiturn else examples_section(task, shots)
    if examples:
        sections += [SEPARATOR, examples]
    messages: list[dict[str, str]] = []
    if task.prompt.get("system"):
        messages.append({"role": "system", "content": str(task.prompt["system"]).strip()})
    turns = list(shots) if multiturn else []
    first = turns[0] if turns else sample
    sections += [SEPARATOR, _query(task, first)]
    messages.append({"role": "user", "content": "\n".join(_join_sections(sections))})
    for number, shot in enumerate(turns):
        messages.append({"role": "assistant", "content": format_target(task, shot.target)})
        following = turns[number + 1] if number + 1 < len(turns) else sample
        messages.append({"role": "user", "content": _query(task, following)})
    return Prompt(sample.id, tuple(messages), tuple(s.id for s in shots))


def _join_sections(sections: list[str]) -> list[str]:
    out: list[str] = []
    for section in sections:
        if out and section != SEPARATOR and out[-1] != SEPARATOR:
            out.append("")
        out.append(section)
    return out


def max_new_tokens(task: TaskSpec) -> int:
    return int(task.prompt.get("max_new_tokens") or answer_format(task).max_new_tokens)


def shots_for(task: TaskSpec, data: TaskData, k: int, seed: int) -> dict[str, list[str]]:
    """``k`` example ids per test sample: the stored shots, drawn afresh when fewer are stored."""
    if k <= 0:
        return {}
    stored = data.shots
    if not stored or any(len(stored.get(s.id, ())) < k for s in data.test):
        stored = pick_shots(task, data, k, int(task.shots.get("seed", seed)))
    return {sample_id: list(ids[:k]) for sample_id, ids in stored.items()}


def build_prompts(
    task: TaskSpec, data: TaskData, k: int, seed: int, multiturn: bool = False
) -> list[Prompt]:
    """One prompt per test sample, with its ``k`` shots as worked examples (as earlier chat
    turns with ``multiturn``)."""
    by_id = data.by_id()
    chosen = shots_for(task, data, k, seed)
    return [
        build_prompt(task, s, [by_id[i] for i in chosen.get(s.id, [])], multiturn)
        for s in data.test
    ]
