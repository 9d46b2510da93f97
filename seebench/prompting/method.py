"""The ``zero-shot`` and ``3-shot`` methods: prompt a generative model, parse, never drop.

Options (``-o KEY=VALUE`` or a task's ``methods:`` block):

- all backends: ``shots`` (k), ``temperature`` (0: greedy), ``max_new_tokens``, ``cache``
  (false: neither read nor write the response cache), ``seed``;
- ``hf``: ``batch_size``, ``dtype``, ``device``;
- ``openai``: ``base_url`` (else ``$OPENAI_BASE_URL``), ``api_key_env`` (the *name* of the
  variable holding the key, default ``OPENAI_API_KEY``), ``concurrency``, ``timeout_s``,
  ``max_retries``, ``retry_base_s``, ``retry_max_s``, ``logprobs``, ``price_input`` and
  ``price_output`` (USD per million tokens, for ``info.cost_usd``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from seebench.data.dataset import TaskData, pick_shots
from seebench.errors import SeebenchError
from seebench.methods.base import MethodOutput, Prediction, RunContext
from seebench.models import ModelRef
from seebench.prompting.backends.base import Backend, Generation
from seebench.prompting.cache import ResponseCache, cache_key
from seebench.prompting.parsing import parse_answer
from seebench.prompting.template import PROMPTABLE_TYPES, Prompt, build_prompt, max_new_tokens
from seebench.registry import load_object
from seebench.tasks.spec import TaskSpec

COMMON_OPTIONS = {"shots", "temperature", "max_new_tokens", "cache", "seed"}
HF_OPTIONS = {"batch_size", "dtype", "device"}
OPENAI_OPTIONS = {"base_url", "api_key_env", "concurrency", "timeout_s", "max_retries",
                  "retry_base_s", "retry_max_s", "logprobs", "price_input", "price_output"}
GENERATIVE_ARCHITECTURES = ("CausalLM", "LMHeadModel")


def shots_for(task: TaskSpec, data: TaskData, k: int, seed: int) -> dict[str, list[str]]:
    """``k`` example ids per test sample: the stored shots, drawn afresh when fewer are stored."""
    if k <= 0:
        return {}
    stored = data.shots
    if not stored or any(len(stored.get(s.id, ())) < k for s in data.test):
        stored = pick_shots(task, data, k, int(task.shots.get("seed", seed)))
    return {sample_id: list(ids[:k]) for sample_id, ids in stored.items()}


def build_prompts(task: TaskSpec, data: TaskData, k: int, seed: int) -> list[Prompt]:
    """One prompt per test sample, with its ``k`` shots as worked examples."""
    by_id = data.by_id()
    chosen = shots_for(task, data, k, seed)
    return [build_prompt(task, s, [by_id[i] for i in chosen.get(s.id, [])]) for s in data.test]


def make_backend(model: ModelRef, task: TaskSpec, options: dict[str, Any], seed: int) -> Backend:
    """The backend that serves ``model``, configured from the method options."""
    common = {"max_new_tokens": int(options.get("max_new_tokens") or max_new_tokens(task)),
              "temperature": float(options.get("temperature", 0.0))}
    if model.kind == "openai":
        from seebench.prompting.backends.openai import OpenAIBackend

        extra = {k: options[k] for k in OPENAI_OPTIONS if k in options}
        return OpenAIBackend(model.identity["model"], seed=options.get("seed"), **common, **extra)
    from seebench.prompting.backends.hf import HFBackend

    prepare = model.options.get("prepare")  # e.g. smollm2's conversion, done only if generating
    directory = (lambda: load_object(prepare)(model)) if prepare else model.identity["path"]
    extra = {k: options[k] for k in HF_OPTIONS if k in options}
    return HFBackend(directory, seed=int(options.get("seed", seed)), **common, **extra)


class PromptMethod:
    """Zero- or k-shot prompting with the SELU base template (``shots`` sets k)."""

    name = "prompt"
    default_shots = 0

    def not_applicable(self, task: TaskSpec, model: ModelRef) -> str | None:
        if task.type not in PROMPTABLE_TYPES:
            return f"prompting does not handle {task.type} tasks"
        if model.kind == "openai":
            return None
        if model.kind != "hf":
            return f"model {model.spec!r} ({model.kind}) cannot be prompted; use smollm2, hf:PATH or openai:NAME"
        architecture = model.identity.get("architecture") or ""
        if architecture and not any(a in architecture for a in GENERATIVE_ARCHITECTURES):
            return f"model {model.spec!r} ({architecture}) does not generate text"
        return None

    def run(self, context: RunContext) -> MethodOutput:
        task, data, model = context.task, context.data, context.model
        options = dict(context.options)
        known = COMMON_OPTIONS | (OPENAI_OPTIONS if model.kind == "openai" else HF_OPTIONS)
        unknown = sorted(set(options) - known)
        if unknown:
            raise SeebenchError(f"unknown option(s) {', '.join(unknown)} for {self.name}; known: {', '.join(sorted(known))}")
        k = int(options.get("shots", self.default_shots))
        prompts = build_prompts(task, data, k, context.seed)
        backend = make_backend(model, task, options, context.seed)
        cache = ResponseCache(enabled=bool(options.get("cache", True)))
        generations = self._generate(prompts, backend, cache, model, context)
        predictions = []
        reasons: Counter[str] = Counter()
        for prompt, (generation, cached) in zip(prompts, generations, strict=True):
            parsed = parse_answer(task, generation.text)
            error = generation.error or parsed.error
            if error:
                reasons[error.split(":")[0]] += 1
            extra: dict[str, Any] = {"cached": cached}
            if generation.retries:
                extra["retries"] = generation.retries
            predictions.append(Prediction(
                prompt.sample_id, parsed.value, raw=generation.text, error=error,
                confidence=generation.confidence, extra=extra, shots=tuple(prompt.shot_ids),
            ))
        info = {
            "backend": backend.name, "shots": k, "generation": backend.params(),
            "cache": {"hits": cache.hits, "misses": cache.misses, "enabled": cache.enabled},
            "invalid_reasons": dict(reasons.most_common()), **backend.info(),
        }
        return MethodOutput(predictions, info)

    def _generate(self, prompts: list[Prompt], backend: Backend, cache: ResponseCache,
                  model: ModelRef, context: RunContext) -> list[tuple[Generation, bool]]:
        """Replies for every prompt: from the cache, else from the backend (cached as they come)."""
        identity, params = backend.identity(), backend.params()
        keys = [cache_key(model.identity, identity, list(p.messages), params) for p in prompts]
        results: list[tuple[Generation, bool] | None] = [None] * len(prompts)
        pending = []
        for position, key in enumerate(keys):
            entry = cache.get(key)
            if entry is None:
                pending.append(position)
                continue
            results[position] = (Generation(entry["text"], confidence=entry.get("confidence"),
                                            usage=entry.get("usage", {})), True)
        context.advance(len(prompts) - len(pending))
        for index, generation in backend.generate([prompts[p] for p in pending]):
            position = pending[index]
            if generation.text is not None:
                cache.put(keys[position], {"text": generation.text, "confidence": generation.confidence,
                                           "usage": generation.usage})
            results[position] = (generation, False)
            context.advance(1)
        missing = [prompts[i].sample_id for i, r in enumerate(results) if r is None]
        if missing:
            raise SeebenchError(f"backend {backend.name!r} returned no reply for {len(missing)} prompt(s)")
        return results  # type: ignore[return-value]


class ZeroShotMethod(PromptMethod):
    """The SELU base template without examples."""

    name = "zero-shot"


class ThreeShotMethod(PromptMethod):
    """The SELU base template with each test instance's 3 stored shots (``-o shots=K``)."""

    name = "3-shot"
    default_shots = 3
