"""A ratings task's items as prompts for a model rater, and as choice questions (``loglik``).

:func:`rating_prompts` is what ``annotate`` sends: the guidelines and scale, one worked
example per answer on the scale (seeded; those items are marked as shots), then the item.
:func:`rating_questions` asks the same prompts, ended by the answer cue ``Answer:``, with
every point of the scale as an answer (its value as the text scored, as the examples answer),
so the ``loglik`` method can rank the scale by the model's log-likelihoods.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from seebench.errors import SeebenchError
from seebench.methods.base import ChoiceQuestion, ChoiceQuestions
from seebench.models.chat import Prompt
from seebench.suites.annotation.rater_prompt import (
    Shot,
    build_messages,
    majority_value,
    pick_shots,
)
from seebench.suites.annotation.ratings import RatingData, RatingItem
from seebench.suites.annotation.rows import data_from_samples
from seebench.tasks.spec import TaskSpec

ANSWER_CUE = "Answer:"


@dataclass
class RatingPrompts:
    """One prompt per item (the samples' order), the data, the example items' sample ids
    and the scale values no item could illustrate."""

    prompts: list[Prompt]
    data: RatingData
    shots: list[Shot]
    shot_ids: set[str]
    missing: list[str]


def rating_prompts(
    task: TaskSpec, samples: Sequence[Any], *, shots: bool, seed: int, cue: str = ""
) -> RatingPrompts:
    """The rater prompts of ``samples`` (with one example per scale value when ``shots``)."""
    data = data_from_samples(samples)
    sample_of = {item_id: s.id for item_id, s in zip(data.item_ids, samples, strict=True)}
    chosen: list[Shot] = []
    missing: list[str] = []
    if shots:
        chosen, _, missing = pick_shots(data, seed=seed)
    block = dict(task.raw.get("prompt") or {})
    prompts = []
    for item in data.items:
        shown = [shot for shot in chosen if shot.item.id != item.id]
        messages = build_messages(block, data.scale, item, shown, cue)
        prompts.append(
            Prompt(sample_of[item.id], tuple(messages), tuple(sample_of[s.item.id] for s in shown))
        )
    return RatingPrompts(prompts, data, chosen, {sample_of[s.item.id] for s in chosen}, missing)


def _shots(task: TaskSpec, shots: int) -> bool:
    if shots not in (0, 1):
        raise SeebenchError(
            f"task {task.name!r}: ratings tasks take shots=0 or shots=1 (one example per "
            f"point on the scale), not {shots}"
        )
    return bool(shots)


def rating_questions(
    task: TaskSpec, samples: Sequence[Any], *, shots: int, seed: int
) -> ChoiceQuestions:
    """Every item asked with the whole scale as its answers; the answer counted right is the
    item's strict human majority (none without one)."""
    asked = rating_prompts(task, samples, shots=_shots(task, shots), seed=seed, cue=ANSWER_CUE)
    values = asked.data.scale.values
    questions = []
    for item, prompt in zip(asked.data.items, asked.prompts, strict=True):
        majority = majority_value(asked.data, item.id)
        questions.append(
            ChoiceQuestion(
                prompt.sample_id,
                prompt,
                values,
                tuple(str(v) for v in values),
                correct=None if majority is None else majority[0],
                extra={"shot": True} if prompt.sample_id in asked.shot_ids else {},
            )
        )
    info = {"shot_items": sorted(asked.shot_ids), "scale_values_without_shot": asked.missing}
    return ChoiceQuestions(questions, info)


def content_free_question(
    task: TaskSpec, samples: Sequence[Any], *, shots: int, seed: int, text: str
) -> ChoiceQuestion:
    """A question whose item shows ``text`` in every field the first item has, with the
    run's examples (drawn from ``samples`` as for the questions)."""
    asked = rating_prompts(task, samples, shots=_shots(task, shots), seed=seed)
    blank = RatingItem("content-free", {name: text for name in asked.data.items[0].fields})
    block = dict(task.raw.get("prompt") or {})
    messages = build_messages(block, asked.data.scale, blank, asked.shots, ANSWER_CUE)
    values = asked.data.scale.values
    prompt = Prompt("content-free", tuple(messages), tuple(sorted(asked.shot_ids)))
    return ChoiceQuestion("content-free", prompt, values, tuple(str(v) for v in values))
