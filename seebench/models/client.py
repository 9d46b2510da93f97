"""One model client per model spec: every method, scorer and app that calls a model uses it.

The client owns what is model-specific and task-independent: making the model's backend (the
one registered for its ``kind`` with :func:`~seebench.hookspecs.register_backends`: local
transformers for ``hf:``/``smollm2``, an OpenAI-compatible server for ``openai:``, a managed
server for ``llamacpp:``/``vllm:``/``sglang:``, or a plugin's), the response cache, retries
and concurrency (in the backend), token and cost accounting, and logprob-based confidence. Prompting, model-as-rater, LLM judges and the
study app call :meth:`ModelClient.generate` or :meth:`ModelClient.chat`.

Options (``-o KEY=VALUE`` or a task's ``methods:`` block) are :data:`COMMON_OPTIONS` and the
options the model's backend registered (:func:`backend_options`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from seebench.errors import ModelError, SeebenchError
from seebench.models import ModelRef, backend_entry, chat_backend
from seebench.models.backends.base import Backend, Generation
from seebench.models.cache import ResponseCache, cache_key
from seebench.models.chat import Prompt
from seebench.models.options import COMMON_OPTIONS, HF_OPTIONS, OPENAI_OPTIONS
from seebench.models.reasoning import REASONING_MAX_NEW_TOKENS
from seebench.models.servers.options import SERVER_OPTIONS

#: Every option the built-in backends understand (managed servers' included); a backend's own
#: are :func:`backend_options`.
CLIENT_OPTIONS = {**COMMON_OPTIONS, **HF_OPTIONS, **OPENAI_OPTIONS, **SERVER_OPTIONS}


def backend_options(model: ModelRef, registry: Any | None = None) -> dict[str, dict[str, Any]]:
    """The options of ``model``'s backend, as it registered them (none for an unknown kind)."""
    entry = backend_entry(model, registry)
    return dict(entry.options) if entry is not None else {}


class ModelClient:
    """Chat with one resolved model; replies are cached by the full request."""

    def __init__(
        self,
        model: ModelRef,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        registry: Any | None = None,
    ):
        self.entry = chat_backend(model, registry)  # one line when the model cannot chat
        self.model = model
        known = {**COMMON_OPTIONS, **self.entry.options}
        self.options = {k: v for k, v in (options or {}).items() if k in known}
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
        missing = self.entry.missing()
        if missing:
            where = f"pip install 'seebench[{self.entry.extra}]'" if self.entry.extra else ""
            raise ModelError(
                f"model {self.model.spec!r}: the {self.entry.name} backend needs "
                f"{', '.join(missing)}: {where or 'install ' + ' '.join(missing)}"
            )
        factory = self.entry.load()
        return factory(
            self.model,
            self.options,
            max_new_tokens=max_new_tokens,
            temperature=temperature,
            seed=seed,
            seeded=seeded,
        )

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
        strip: bool = False,
    ) -> list[tuple[Generation, bool]]:
        """A reply for every prompt, in order, with whether it came from the cache.

        Replies are the model's text as it wrote it: a code suggestion keeps its leading
        indentation. ``strip=True`` takes whitespace off both ends (for callers that parse an
        answer).

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
        done = [r for r in results if r is not None]  # every one, none is missing
        think_end = self.options.get("think_end")
        if think_end:
            done = [
                (self._split(generation, str(think_end), backend, max_new_tokens), cached)
                for generation, cached in done
            ]
        if strip:
            done = [(_stripped(g), cached) for g, cached in done]
        return done

    def loglikelihood(
        self,
        prompts: Sequence[Prompt],
        options: Sequence[Sequence[str]],
        *,
        advance: Callable[[int], None] = lambda n: None,
    ) -> list[tuple[list[dict[str, Any]] | None, str | None, bool]]:
        """Every option's log-likelihood as a continuation of its prompt: per prompt,
        ``(scores, error, cached)`` with one ``{"logprob", "tokens", "chars", "greedy"}`` per
        option (``None`` and the reason when the backend could not score it). Cached like
        replies. A backend that cannot score log-likelihoods is one line naming the model."""
        backend = self.backend(1, 0.0)
        score = getattr(backend, "loglikelihood", None)
        if not callable(score):
            raise ModelError(
                f"model {self.model.spec!r}: the {backend.name} backend cannot return "
                "log-likelihoods; loglik needs hf:/smollm2, vllm: or an OpenAI-compatible "
                "completions server that returns prompt logprobs (echo + logprobs)"
            )
        identity = {**backend.identity(), "request": "loglikelihood"}
        keys = [
            cache_key(self.model.identity, identity, list(p.messages), {"options": list(o)})
            for p, o in zip(prompts, options, strict=True)
        ]
        results: list[Any] = [None] * len(prompts)
        pending = []
        for position, key in enumerate(keys):
            entry = self.cache.get(key)
            if entry is None:
                pending.append(position)
            else:
                results[position] = (entry["scores"], None, True)
        advance(len(prompts) - len(pending))
        asked = ([prompts[p] for p in pending], [options[p] for p in pending])
        for index, scores in score(*asked):
            position = pending[index]
            if isinstance(scores, str):
                results[position] = (None, scores, False)
            else:
                rows = [s.as_dict() for s in scores]
                self.cache.put(keys[position], {"scores": rows})
                results[position] = (rows, None, False)
            advance(1)
        return results

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
        strip: bool = False,
    ) -> Generation:
        """One reply to ``messages`` (cached like any other request; ``strip`` as for
        :meth:`generate`)."""
        prompt = Prompt(item_id, tuple(dict(m) for m in messages))
        replies = self.generate(
            [prompt],
            max_new_tokens=max_new_tokens,
            temperature=temperature,
            seed=seed,
            strip=strip,
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


def _stripped(generation: Generation) -> Generation:
    """``generation`` with whitespace taken off both ends of its text."""
    from dataclasses import replace

    if generation.text is None:
        return generation
    return replace(generation, text=generation.text.strip())
