"""One model client per model spec: every method, scorer and app that calls a model uses it.

The client owns what is model-specific and task-independent: choosing and configuring the
backend (local transformers for ``hf:``/``smollm2``, an OpenAI-compatible server for
``openai:``, a managed server for ``llamacpp:``/``vllm:``/``sglang:``), the response cache, retries and concurrency (in the backend), token and cost
accounting, and logprob-based confidence. Prompting, model-as-rater, LLM judges and the
study app call :meth:`ModelClient.generate` or :meth:`ModelClient.chat`.

Options (``-o KEY=VALUE`` or a task's ``methods:`` block) are declared in
:data:`CLIENT_OPTIONS`; ``hf``, ``openai`` and server options only apply to their backend
(:func:`backend_options`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from seebench.errors import ModelError, SeebenchError
from seebench.models import ModelRef
from seebench.models.backends.base import Backend, Generation
from seebench.models.cache import ResponseCache, cache_key
from seebench.models.chat import Prompt
from seebench.models.reasoning import REASONING_MAX_NEW_TOKENS, THINK_END_OPTION
from seebench.models.servers import SERVER_OPTIONS, is_served, served_option_schema
from seebench.registry import load_object

_NUMBER = {"type": "number"}
_INT = {"type": "integer", "minimum": 1}
COMMON_OPTIONS: dict[str, dict[str, Any]] = {
    "temperature": {"type": "number", "minimum": 0, "description": "a number >= 0 (0: greedy)"},
    "max_new_tokens": {**_INT, "description": "an integer >= 1"},
    "cache": {"type": "boolean", "description": "true or false"},
    "seed": {"type": "integer", "description": "an integer"},
    "think_end": THINK_END_OPTION,
}
HF_OPTIONS: dict[str, dict[str, Any]] = {
    "batch_size": {**_INT, "description": "an integer >= 1"},
    "dtype": {
        "enum": ["float32", "bfloat16", "float16", "auto"],
        "description": "float32, bfloat16, float16 or auto",
    },
    "device": {"type": "string", "description": "auto, cpu, cuda or cuda:N"},
    "prefix_cache": {"type": "boolean", "description": "true or false"},
    "chat_template": {
        "type": "boolean",
        "description": "true or false (false: the raw prompt text, for base models)",
    },
}
OPENAI_OPTIONS: dict[str, dict[str, Any]] = {
    "base_url": {"type": "string", "description": "an http(s) URL"},
    "api_key_env": {"type": "string", "description": "the NAME of the variable holding the key"},
    "concurrency": {**_INT, "description": "an integer >= 1"},
    "timeout_s": {**_NUMBER, "description": "seconds"},
    "max_retries": {"type": "integer", "minimum": 0, "description": "an integer >= 0"},
    "retry_base_s": {**_NUMBER, "description": "seconds"},
    "retry_max_s": {**_NUMBER, "description": "seconds"},
    "logprobs": {"type": "boolean", "description": "true or false"},
    "price_input": {**_NUMBER, "description": "USD per million input tokens"},
    "price_output": {**_NUMBER, "description": "USD per million output tokens"},
}
#: Every option a model client understands (managed servers' included).
CLIENT_OPTIONS = {**COMMON_OPTIONS, **HF_OPTIONS, **OPENAI_OPTIONS, **SERVER_OPTIONS}


def backend_options(model: ModelRef) -> dict[str, dict[str, Any]]:
    """The options of ``model``'s backend: hf, openai, or its managed server's."""
    if is_served(model):
        return served_option_schema(model)
    return OPENAI_OPTIONS if model.kind == "openai" else HF_OPTIONS


class ModelClient:
    """Chat with one resolved model; replies are cached by the full request."""

    def __init__(self, model: ModelRef, options: dict[str, Any] | None = None, seed: int = 0):
        if model.kind not in ("hf", "openai"):
            raise ModelError(
                f"model {model.spec!r} ({model.kind}) cannot chat; use smollm2, hf:PATH or openai:NAME"
            )
        self.model = model
        self.options = {k: v for k, v in (options or {}).items() if k in CLIENT_OPTIONS}
        self.seed = int(self.options.get("seed", seed))
        self.cache = ResponseCache(enabled=bool(self.options.get("cache", True)))
        self._backends: dict[tuple[int, float, int], Backend] = {}
        self._lock = threading.Lock()  # callers may share one client across threads
        self.generated = 0  # replies produced by the backend (not read from the cache)
        self.reasoning_usage: dict[str, int] = {}  # reasoning/answer tokens, cut-off replies

    def backend(
        self, max_new_tokens: int, temperature: float = 0.0, seed: int | None = None
    ) -> Backend:
        """The backend for these generation settings (made once per setting); ``seed``
        defaults to the client's."""
        key = (int(max_new_tokens), float(temperature), self.seed if seed is None else int(seed))
        with self._lock:
            if key not in self._backends:
                self._backends[key] = self._make_backend(*key, seeded=seed is not None)
            return self._backends[key]

    def _make_backend(
        self, max_new_tokens: int, temperature: float, seed: int, seeded: bool = False
    ) -> Backend:
        common = {"max_new_tokens": max_new_tokens, "temperature": temperature}
        if is_served(self.model):
            from seebench.models.servers.backend import served_backend

            api_seed = seed if seeded else self.options.get("seed")
            return served_backend(self.model, self.options, seed=api_seed, **common)
        if self.model.kind == "openai":
            from seebench.models.backends.openai import OpenAIBackend

            extra = {k: self.options[k] for k in OPENAI_OPTIONS if k in self.options}
            api_seed = seed if seeded else self.options.get("seed")
            return OpenAIBackend(self.model.identity["model"], seed=api_seed, **common, **extra)
        from seebench.models.backends.hf import HFBackend

        prepare = self.model.options.get(
            "prepare"
        )  # e.g. smollm2's conversion, done only if generating
        directory = (
            (lambda: load_object(prepare)(self.model)) if prepare else self.model.identity["path"]
        )
        extra = {k: self.options[k] for k in HF_OPTIONS if k in self.options}
        return HFBackend(directory, seed=seed, **common, **extra)

    def max_in_flight(self) -> int:
        """How many requests the backend runs at once (its ``concurrency``; 1 for a local
        model): callers with independent requests may use that many threads."""
        probe = self._make_backend(16, 0.0, self.seed)  # not kept: backends load lazily
        return max(1, int(getattr(probe, "concurrency", 1)))

    def generate(
        self,
        prompts: Sequence[Prompt],
        *,
        max_new_tokens: int,
        temperature: float | None = None,
        seed: int | None = None,
        advance: Callable[[int], None] = lambda n: None,
    ) -> list[tuple[Generation, bool]]:
        """A reply for every prompt, in order, with whether it came from the cache.

        Cached replies are used first; the rest are generated (and cached as they arrive).
        ``temperature`` defaults to the client's option (0: greedy). ``seed`` (default: the
        client's) seeds sampling, so n samples of one prompt are n requests (and n cache
        entries) with seeds s, s+1, ...
        """
        if temperature is None:
            temperature = float(self.options.get("temperature", 0.0))
        if self.options.get("think_end") and not self.options.get("max_new_tokens"):
            max_new_tokens = max(max_new_tokens, REASONING_MAX_NEW_TOKENS)  # room to think
        max_new_tokens = int(self.options.get("max_new_tokens") or max_new_tokens)
        backend = self.backend(max_new_tokens, temperature, seed)
        identity, params = backend.identity(), backend.params()
        keys = [cache_key(self.model.identity, identity, list(p.messages), params) for p in prompts]
        results: list[tuple[Generation, bool] | None] = [None] * len(prompts)
        pending = []
        for position, key in enumerate(keys):
            entry = self.cache.get(key)
            if entry is None:
                pending.append(position)
                continue
            results[position] = (
                Generation(
                    entry["text"], confidence=entry.get("confidence"), usage=entry.get("usage", {})
                ),
                True,
            )
        advance(len(prompts) - len(pending))
        for index, generation in backend.generate([prompts[p] for p in pending]):
            position = pending[index]
            with self._lock:
                self.generated += 1
            if generation.text is not None:
                self.cache.put(
                    keys[position],
                    {
                        "text": generation.text,
                        "confidence": generation.confidence,
                        "usage": generation.usage,
                    },
                )
            results[position] = (generation, False)
            advance(1)
        missing = [prompts[i].sample_id for i, r in enumerate(results) if r is None]
        if missing:
            raise SeebenchError(
                f"backend {backend.name!r} returned no reply for {len(missing)} prompt(s)"
            )
        think_end = self.options.get("think_end")
        if think_end:
            results = [
                (self._split(generation, str(think_end), backend, max_new_tokens), cached)
                for generation, cached in results  # type: ignore[misc]
            ]
        return results  # type: ignore[return-value]

    def _split(
        self, generation: Generation, think_end: str, backend: Backend, max_new_tokens: int
    ) -> Generation:
        """``generation`` with its reasoning taken out of ``text`` (see
        :mod:`seebench.models.reasoning`); a reply cut off before its answer gets an error."""
        from dataclasses import replace

        from seebench.models.reasoning import cut_off_reason, split_reasoning, split_tokens

        if generation.text is None:
            return generation
        split = split_reasoning(generation.text, think_end)
        completion = int(generation.usage.get("completion_tokens", 0) or 0)
        count = getattr(backend, "count_tokens", None)
        if callable(count) and split.reasoning:
            reasoning_tokens = min(completion, count(split.reasoning))
            tokens = {
                "reasoning_tokens": reasoning_tokens,
                "answer_tokens": completion - reasoning_tokens,
            }
        else:
            tokens = split_tokens(completion, split.reasoning, split.answer)
        for key, value in tokens.items():
            self.reasoning_usage[key] = self.reasoning_usage.get(key, 0) + value
        error = generation.error
        if split.cut_off:
            self.reasoning_usage["cut_off"] = self.reasoning_usage.get("cut_off", 0) + 1
            error = error or cut_off_reason(think_end, max_new_tokens)
        return replace(
            generation,
            text=split.answer,
            reasoning=split.reasoning,
            error=error,
            usage={**generation.usage, **tokens},
        )

    def chat(
        self,
        messages: Sequence[dict[str, str]],
        *,
        max_new_tokens: int = 256,
        temperature: float | None = None,
        seed: int | None = None,
        item_id: str = "chat",
    ) -> Generation:
        """One reply to ``messages`` (cached like any other request)."""
        prompt = Prompt(item_id, tuple(dict(m) for m in messages))
        replies = self.generate(
            [prompt], max_new_tokens=max_new_tokens, temperature=temperature, seed=seed
        )
        return replies[0][0]

    def info(self) -> dict[str, Any]:
        """Accounting for a result's ``info``: backend, settings, cache use, tokens, cost."""
        info: dict[str, Any] = {
            "cache": {
                "hits": self.cache.hits,
                "misses": self.cache.misses,
                "enabled": self.cache.enabled,
            }
        }
        for backend in self._backends.values():
            info.setdefault("backend", backend.name)
            info.setdefault("generation", backend.params())
            info.update(backend.info())
        if self.reasoning_usage:
            info["reasoning"] = {"think_end": self.options.get("think_end"), **self.reasoning_usage}
        return info
