"""The ``annotate`` method: a model rates each item as one more rater.

For each item the model gets the task's guidelines and scale, then one worked example per
answer on the scale (items whose human majority gave that answer, seeded; those items are
marked ``extra.shot`` and left out of the agreement analysis), then the item. Its reply is
parsed to a scale value; the probability of the reply (logprobs, where the backend gives
them) is the prediction's ``confidence``. Tasks whose public data lack what the raters saw
(``model_rater.applicable: false``) are not applicable, with the task's reason.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef
from seebench.models.chat import Prompt
from seebench.models.client import COMMON_OPTIONS, HF_OPTIONS, OPENAI_OPTIONS
from seebench.suites.annotation.rater_prompt import build_messages, parse_rating, pick_shots
from seebench.suites.annotation.rows import data_from_samples
from seebench.tasks.spec import TaskSpec

GENERATIVE_ARCHITECTURES = ("CausalLM", "LMHeadModel")
ANNOTATE_OPTIONS = {
    "shots": {"type": "boolean", "description": "true or false (one example per answer)"}
}
MAX_NEW_TOKENS = 16


class AnnotateMethod:
    """A generative model as one more rater (few-shot, one example per answer)."""

    name = "annotate"

    @staticmethod
    def option_schema(model: ModelRef) -> dict[str, Any]:
        backend = OPENAI_OPTIONS if model.kind == "openai" else HF_OPTIONS
        return {**ANNOTATE_OPTIONS, **COMMON_OPTIONS, **backend}

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        rater = task.raw.get("model_rater") or {}
        if not rater.get("applicable", False):
            return (
                f"a model cannot rate {task.name!r}: {rater.get('reason', 'no model_rater block')}"
            )
        if model.kind == "openai":
            return None
        if model.kind != "hf":
            return f"model {model.spec!r} ({model.kind}) cannot rate; use smollm2, hf:PATH or openai:NAME"
        architecture = model.identity.get("architecture") or ""
        if architecture and not any(a in architecture for a in GENERATIVE_ARCHITECTURES):
            return f"model {model.spec!r} ({architecture}) does not generate text"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        task, samples = context.task, list(context.data.test)
        data = data_from_samples(samples)
        sample_of = {item_id: s.id for item_id, s in zip(data.item_ids, samples, strict=True)}
        shots, missing = [], []
        if context.options.get("shots", True):
            shots, _, missing = pick_shots(data, seed=context.seed)
        shot_ids = {shot.item.id for shot in shots}
        prompt_block = dict(task.raw.get("prompt") or {})
        prompts = []
        for item in data.items:
            shown = [shot for shot in shots if shot.item.id != item.id]
            messages = build_messages(prompt_block, data.scale, item, shown)
            prompts.append(
                Prompt(
                    sample_of[item.id], tuple(messages), tuple(sample_of[s.item.id] for s in shown)
                )
            )
        generations = context.client.generate(
            prompts, max_new_tokens=MAX_NEW_TOKENS, advance=context.advance
        )
        predictions = []
        reasons: Counter[str] = Counter()
        for item, prompt, (generation, cached) in zip(
            data.items, prompts, generations, strict=True
        ):
            value = (
                parse_rating(generation.text or "", data.scale)
                if generation.text is not None
                else None
            )
            error = generation.error or (
                None if value is not None else f"no answer on the scale in {generation.text!r:.60}"
            )
            if error:
                reasons[error.split(" in ")[0].split(":")[0]] += 1
            extra: dict[str, Any] = {"cached": cached}
            if item.id in shot_ids:
                extra["shot"] = True
            predictions.append(
                Prediction(
                    prompt.sample_id,
                    value,
                    raw=generation.text,
                    error=error,
                    confidence=generation.confidence,
                    extra=extra,
                    shots=prompt.shot_ids,
                )
            )
        info = {
            "shots": [sample_of[i] for i in sorted(shot_ids)],
            "scale_values_without_shot": missing,
            **context.client.info(),
            "invalid_reasons": dict(reasons.most_common()),
        }
        return MethodOutput(predictions, info)
