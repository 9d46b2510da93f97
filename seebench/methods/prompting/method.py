"""The ``zero-shot`` and ``3-shot`` methods: prompt a generative model, parse, never drop.

Options (``-o KEY=VALUE`` or a task's ``methods:`` block):

- all backends: ``shots`` (k), ``fewshot_as_multiturn`` (shots as earlier chat turns),
  ``temperature`` (0: greedy), ``max_new_tokens``, ``cache`` (false: neither read nor write
  the response cache), ``seed``, ``think_end`` (a reasoning model's end-of-thinking marker,
  or ``auto``: see :mod:`seebench.models.reasoning`);
- ``hf``: ``batch_size``, ``dtype``, ``device``, ``prefix_cache`` (false: read every prompt
  whole, not their shared start once), ``chat_template`` (false: send the raw prompt text,
  for base models, even when the tokenizer has a chat template);
- ``openai``: ``base_url`` (else ``$OPENAI_BASE_URL``), ``api_key_env`` (the *name* of the
  variable holding the key, default ``OPENAI_API_KEY``), ``concurrency``, ``timeout_s``,
  ``max_retries``, ``retry_base_s``, ``retry_max_s``, ``logprobs``, ``price_input`` and
  ``price_output`` (USD per million tokens, for ``info.cost_usd``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef, chat_problem
from seebench.models.client import COMMON_OPTIONS, backend_options
from seebench.models.template import (  # noqa: F401 (shots_for: re-exported)
    Prompt,
    build_prompts,
    max_new_tokens,
    shots_for,
)
from seebench.tasks.parsing import parse_answer
from seebench.tasks.spec import TaskSpec

#: The method's own options; the model client's are added per backend (``option_schema``).
PROMPT_OPTIONS = {
    "shots": {
        "type": "integer",
        "minimum": 0,
        "description": "an integer >= 0 (examples per prompt)",
    },
    "fewshot_as_multiturn": {
        "type": "boolean",
        "description": "true or false (each shot as a user turn and an assistant answer)",
    },
}
GENERATIVE_ARCHITECTURES = ("CausalLM", "LMHeadModel")


class PromptMethod:
    """Zero- or k-shot prompting with the SELU base template (``shots`` sets k)."""

    name = "prompt"
    default_shots = 0
    #: :meth:`run` keeps no state between calls: units of a served model may run side by side
    runs_in_threads = True

    @staticmethod
    def option_schema(model: ModelRef) -> dict[str, Any]:
        """The options this method takes with ``model`` (its backend's options included)."""
        backend = backend_options(model)
        return {**PROMPT_OPTIONS, **COMMON_OPTIONS, **backend}

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        if task.behaviour.answer_format(task) is None:
            return f"prompting does not handle {task.type} tasks"
        problem = chat_problem(model, verb="be prompted")
        if problem is not None:
            return problem
        architecture = model.identity.get("architecture") or ""
        if architecture and not any(a in architecture for a in GENERATIVE_ARCHITECTURES):
            return f"model {model.spec!r} ({architecture}) does not generate text"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        task, data = context.task, context.data
        k = int(context.options.get("shots", self.default_shots))
        multiturn = bool(context.options.get("fewshot_as_multiturn", False))
        prompts = build_prompts(task, data, k, context.seed, multiturn)
        client = context.client
        generations = client.generate(
            prompts, max_new_tokens=max_new_tokens(task), advance=context.advance, strip=True
        )
        predictions = []
        reasons: Counter[str] = Counter()
        for prompt, (generation, cached) in zip(prompts, generations, strict=True):
            parsed = parse_answer(task, generation.text)
            error = generation.error or parsed.error
            if error:
                reasons[error.split(":")[0]] += 1
            # the messages as sent, so that `seebench view` shows the prompt of every sample
            extra: dict[str, Any] = {"cached": cached, "prompt": list(prompt.messages)}
            if generation.retries:
                extra["retries"] = generation.retries
            if generation.reasoning is not None:
                extra["reasoning"] = generation.reasoning
                extra["tokens"] = {
                    k: generation.usage[k]
                    for k in ("reasoning_tokens", "answer_tokens")
                    if k in generation.usage
                }
            predictions.append(
                Prediction(
                    prompt.sample_id,
                    parsed.value,
                    raw=generation.text,
                    error=error,
                    confidence=generation.confidence,
                    extra=extra,
                    shots=tuple(prompt.shot_ids),
                )
            )
        info = {"shots": k, **client.info(), "invalid_reasons": dict(reasons.most_common())}
        return MethodOutput(predictions, info)


class ZeroShotMethod(PromptMethod):
    """The SELU base template without examples."""

    name = "zero-shot"


class ThreeShotMethod(PromptMethod):
    """The SELU base template with each test instance's 3 stored shots (``-o shots=K``)."""

    name = "3-shot"
    default_shots = 3
