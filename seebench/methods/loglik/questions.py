"""What ``loglik`` asks: one choice question per test sample (its answers and their texts).

A single-label task asks each sample with its labels as the answers (the prompt prompting
would send); a type that asks its own questions (:class:`~seebench.methods.base.AsksChoices`,
e.g. a rating scale) builds them itself; a label-set task asks one yes/no question per label
(:func:`yes_no_prompt`). ``-o verbalisers`` replaces the text scored for any answer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from seebench.errors import SeebenchError
from seebench.methods.base import AsksChoices, ChoiceQuestion, ChoiceQuestions, RunContext
from seebench.models.template import Prompt, build_prompt, build_prompts
from seebench.tasks.spec import TaskSpec

CONTENT_FREE = "N/A"  # the content-free input of contextual calibration
YES_NO = ("yes", "no")


def asks_choices(task: Any) -> AsksChoices | None:
    """The task's type when it asks its own choice questions, else ``None``."""
    behaviour = getattr(task, "behaviour", None)
    return behaviour if isinstance(behaviour, AsksChoices) else None


def shots_of(context: RunContext) -> int:
    return int(context.options.get("shots", 0))


def questions(context: RunContext) -> ChoiceQuestions:
    """One question per test sample (same order), ``-o verbalisers`` applied."""
    task, data = context.task, context.data
    own = asks_choices(task)
    if own is not None:
        asked = own.choice_questions(task, data.test, shots=shots_of(context), seed=context.seed)
    else:
        multiturn = bool(context.options.get("fewshot_as_multiturn", False))
        prompts = build_prompts(task, data, shots_of(context), context.seed, multiturn)
        asked = ChoiceQuestions(
            [
                _label_question(task, prompt, sample.target)
                for prompt, sample in zip(prompts, data.test, strict=True)
            ]
        )
    return ChoiceQuestions(with_verbalisers(task, asked.questions, context.options), asked.info)


def content_free(context: RunContext) -> ChoiceQuestion:
    """The question of a content-free input (contextual calibration)."""
    task, data = context.task, context.data
    own = asks_choices(task)
    if own is not None:
        question = own.content_free_question(
            task, data.test, shots=shots_of(context), seed=context.seed, text=CONTENT_FREE
        )
    else:
        sample = replace(data.test[0], id="content-free", input=CONTENT_FREE)
        question = _label_question(task, build_prompt(task, sample), None)
    return with_verbalisers(task, [question], context.options)[0]


def _label_question(task: TaskSpec, prompt: Prompt, target: Any) -> ChoiceQuestion:
    labels = tuple(task.label_names)
    return ChoiceQuestion(prompt.sample_id, prompt, labels, labels, correct=target)


def with_verbalisers(
    task: TaskSpec, asked: list[ChoiceQuestion], options: dict[str, Any]
) -> list[ChoiceQuestion]:
    """``asked`` with the texts ``-o verbalisers={answer: text}`` gives (answers by name)."""
    given = {str(k): str(v) for k, v in dict(options.get("verbalisers") or {}).items()}
    if not given or not asked:
        return asked
    known = list(dict.fromkeys(key for q in asked for key in q.keys))
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise SeebenchError(
            f"task {task.name!r}: verbalisers name unknown answer(s) {unknown}; answers: {known}"
        )
    return [
        replace(
            q,
            verbalisers=tuple(
                given.get(key, text) for key, text in zip(q.keys, q.verbalisers, strict=True)
            ),
        )
        for q in asked
    ]


def verbalisers(task: TaskSpec, options: dict[str, Any]) -> dict[str, str]:
    """Each label's verbaliser: its name unless ``verbalisers`` says otherwise."""
    labels = tuple(task.label_names)
    question = ChoiceQuestion("", Prompt("", ()), labels, labels)
    (question,) = with_verbalisers(task, [question], options)
    return dict(zip(labels, question.verbalisers, strict=True))


def yes_no_prompt(task: TaskSpec, prompt: Prompt, label: str) -> Prompt:
    """``prompt`` asking whether one label applies (its answer cue replaced)."""
    from seebench.models.template import answer_name

    messages = [dict(m) for m in prompt.messages]
    content = messages[-1]["content"]
    cue = f"\n{answer_name(task)}:"
    if content.endswith(cue):
        content = content[: -len(cue)]
    messages[-1]["content"] = (
        f"{content}\nDoes the label {label!r} apply? Answer yes or no.\nAnswer:"
    )
    return Prompt(f"{prompt.sample_id}#{label}", tuple(messages), prompt.shot_ids)


def label_set_requests(
    task: TaskSpec, prompts: list[Prompt], words: dict[str, str]
) -> tuple[list[Prompt], list[list[str]]]:
    """One yes/no request per (prompt, label), prompt-major."""
    requests = [yes_no_prompt(task, p, words[label]) for p in prompts for label in task.label_names]
    return requests, [list(YES_NO) for _ in requests]
