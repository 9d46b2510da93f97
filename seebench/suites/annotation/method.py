"""The ``annotate`` method: a model rates each item as one more rater.

For each item the model gets the task's guidelines and scale, then one worked example per
answer on the scale (items whose human majority gave that answer, seeded; those items are
marked ``extra.shot`` and left out of the agreement analysis), then the item. Its reply is
parsed to a scale value; the probability of the reply (logprobs, where the backend gives
them) is the prediction's ``confidence``. With ``-o samples=n`` each item is also answered n
times by sampling (``sample_temperature``, default 1.0; round k uses seed + k), the sampled
ratings are kept in ``extra.samples`` and the result's ``info.stability`` says how often they
agree with the greedy answer (intra-rater stability). Tasks whose public data lack what the raters saw
(``model_rater.applicable: false``) are not applicable, with the task's reason.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef, chat_problem
from seebench.models.chat import Prompt
from seebench.models.client import COMMON_OPTIONS, backend_options
from seebench.suites.annotation.questions import rating_prompts
from seebench.suites.annotation.rater_prompt import parse_rating
from seebench.tasks.spec import TaskSpec

GENERATIVE_ARCHITECTURES = ("CausalLM", "LMHeadModel")
ANNOTATE_OPTIONS = {
    "shots": {"type": "boolean", "description": "true or false (one example per answer)"},
    "samples": {
        "type": "integer",
        "minimum": 0,
        "description": "n sampled answers per item besides the greedy one (intra-rater stability)",
    },
    "sample_temperature": {
        "type": "number",
        "minimum": 0,
        "description": "the temperature of those samples (default 1.0)",
    },
}
MAX_NEW_TOKENS = 16


class AnnotateMethod:
    """A generative model as one more rater (few-shot, one example per answer)."""

    name = "annotate"

    @staticmethod
    def option_schema(model: ModelRef) -> dict[str, Any]:
        backend = backend_options(model)
        return {**ANNOTATE_OPTIONS, **COMMON_OPTIONS, **backend}

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        rater = task.raw.get("model_rater") or {}
        if not rater.get("applicable", False):
            return (
                f"a model cannot rate {task.name!r}: {rater.get('reason', 'no model_rater block')}"
            )
        problem = chat_problem(model, verb="rate")
        if problem is not None:
            return problem
        architecture = model.identity.get("architecture") or ""
        if architecture and not any(a in architecture for a in GENERATIVE_ARCHITECTURES):
            return f"model {model.spec!r} ({architecture}) does not generate text"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        asked = rating_prompts(
            context.task,
            list(context.data.test),
            shots=bool(context.options.get("shots", True)),
            seed=context.seed,
        )
        data, prompts, shot_ids = asked.data, asked.prompts, asked.shot_ids
        generations = context.client.generate(
            prompts, max_new_tokens=MAX_NEW_TOKENS, advance=context.advance, strip=True
        )
        sampled = _sampled_ratings(context, prompts, data.scale)
        predictions: list[Prediction] = []
        reasons: Counter[str] = Counter()
        for prompt, (generation, cached) in zip(prompts, generations, strict=True):
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
            if sampled:
                extra["samples"] = [ratings[len(predictions)] for ratings in sampled]
            if prompt.sample_id in shot_ids:
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
            "shots": sorted(shot_ids),
            "scale_values_without_shot": asked.missing,
            **context.client.info(),
            "invalid_reasons": dict(reasons.most_common()),
        }
        if sampled:
            info["stability"] = stability([p.extra["samples"] for p in predictions], predictions)
        return MethodOutput(predictions, info)


def _sampled_ratings(context: RunContext, prompts: list[Prompt], scale: Any) -> list[list[Any]]:
    """``samples`` extra answers per prompt, each round with its own seed (one cached request
    per prompt and seed); the parsed ratings per round (``None`` where unreadable)."""
    count = int(context.options.get("samples", 0) or 0)
    temperature = float(context.options.get("sample_temperature", 1.0))
    rounds = []
    for round_number in range(count):
        replies = context.client.generate(
            prompts,
            max_new_tokens=MAX_NEW_TOKENS,
            temperature=temperature,
            seed=context.seed + 1 + round_number,
            strip=True,
        )
        rounds.append(
            [parse_rating(g.text, scale) if g.text is not None else None for g, _cached in replies]
        )
    return rounds


def stability(samples: list[list[Any]], predictions: list[Prediction]) -> dict[str, Any]:
    """Intra-rater stability over items with a readable greedy answer: the mean share of
    sampled answers equal to it, and the share of items where every sample equals it."""
    shares, unanimous = [], 0
    for values, prediction in zip(samples, predictions, strict=True):
        if prediction.prediction is None or not values:
            continue
        same = sum(value == prediction.prediction for value in values)
        shares.append(same / len(values))
        unanimous += same == len(values)
    if not shares:
        return {"items": 0, "mean_agreement_with_greedy": None, "unanimous": None}
    return {
        "items": len(shares),
        "samples": len(samples[0]),
        "mean_agreement_with_greedy": sum(shares) / len(shares),
        "unanimous": unanimous / len(shares),
    }
