"""The ``ratings`` task type: an item rated by several people on a declared scale and level.

A sample's input is ``{"id": item id, "fields": {what a rater saw}}``; its target is
``{"ratings": {rater id: value}, "scale": [{value, label}, ...], "level": ...}`` (see
:mod:`.rows`). A model's prediction is one value on the scale. Generic prompting and baselines
do not apply (target kind ``rating``); the ``annotate`` method asks a model to rate, and the
type asks its items as choice questions (:class:`~seebench.methods.base.AsksChoices`) for the
``loglik`` method, which ranks the scale by the model's log-likelihoods.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from seebench.suites.annotation.rows import check_target
from seebench.suites.annotation.scale import Scale
from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import RATING, ParsedAnswer, TaskType

#: Task-file keys this type adds (merged into the task schema).
RATINGS_TASK_SCHEMA: dict[str, Any] = {
    "properties": {
        "model_rater": {
            "type": "object",
            "additionalProperties": False,
            "required": ["applicable"],
            "description": "Whether the data hold what a rater saw, so that a model can rate the items.",
            "properties": {"applicable": {"type": "boolean"}, "reason": {"type": "string"}},
            "if": {"properties": {"applicable": {"const": False}}},
            "then": {"required": ["applicable", "reason"]},
        }
    },
    "required": ["model_rater"],
}


class RatingsType(TaskType):
    """Multi-rater ratings; scored by how many human raters gave the model's answer."""

    target_kind = RATING
    default_metrics = ("alpha_human_model", "majority_agreement")

    def normalise_target(self, task: TaskSpec, value: Any) -> Any:
        from seebench.data.dataset import DataError

        try:
            return check_target(value)
        except DataError as exc:
            raise DataError(f"task {task.name!r}: {exc}") from None

    def summarise_targets(self, task: TaskSpec, targets: Sequence[Any]) -> dict[str, Any] | None:
        if not targets:
            return None
        per_item = Counter(len(t["ratings"]) for t in targets)
        raters = sorted({r for t in targets for r in t["ratings"]})
        return {
            "items": len(targets),
            "raters": len(raters),
            "ratings_per_item": f"{min(per_item)}-{max(per_item)}"
            if len(per_item) > 1
            else str(min(per_item)),
            "level": targets[0]["level"],
            "scale": [p["value"] for p in targets[0]["scale"]],
        }

    def sample_score(self, task: TaskSpec, gold: Any, prediction: Any) -> float:
        """The share of the item's human raters who gave the model's answer."""
        given = list(gold["ratings"].values())
        if prediction is None or not given:
            return 0.0
        return sum(v == prediction for v in given) / len(given)

    def parse_answer(self, task: TaskSpec, text: str) -> ParsedAnswer:
        return ParsedAnswer(None, "ratings tasks are rated by the 'annotate' method")

    def scale(self, target: Any) -> Scale:
        """The scale a target declares."""
        return Scale.from_config(list(target["scale"]))

    # -- choice questions (the loglik method) --------------------------------------------

    def choices_not_applicable(self, task: TaskSpec) -> str | None:
        """Why a model cannot rate the task's items (the data lack what raters saw)."""
        rater = task.raw.get("model_rater") or {}
        if not rater.get("applicable", False):
            return (
                f"a model cannot rate {task.name!r}: {rater.get('reason', 'no model_rater block')}"
            )
        return None

    def choice_questions(
        self, task: TaskSpec, samples: Sequence[Any], *, shots: int, seed: int
    ) -> Any:
        """Each item with the whole scale as its answers (``shots=1``: one example per point)."""
        from seebench.suites.annotation.questions import rating_questions

        return rating_questions(task, samples, shots=shots, seed=seed)

    def content_free_question(
        self, task: TaskSpec, samples: Sequence[Any], *, shots: int, seed: int, text: str
    ) -> Any:
        """An item showing ``text`` in every field, with the run's examples."""
        from seebench.suites.annotation.questions import content_free_question

        return content_free_question(task, samples, shots=shots, seed=seed, text=text)
