"""An OpenAI-compatible chat-completions client (OpenAI, vLLM, llama.cpp server, ...).

Requests run on the process's one request loop (:mod:`seebench.models.backends.request_loop`,
aiohttp): at most ``concurrency`` are in flight to one server, whichever unit of the run sent
them, and the calling thread only waits for the replies. ``timeout_s`` bounds each whole
request, however slowly the server answers. HTTP 429 and 5xx replies, timeouts, broken
connections and malformed JSON are retried with exponential backoff (``Retry-After`` is
honoured, capped by ``retry_max_s``); other HTTP errors fail at once. A request that still
fails becomes a generation with an ``error``: the sample is then invalid with that reason,
never dropped. The API key is read from the environment at run time and never appears in
identities, parameters, errors or accounting.
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from seebench.errors import ModelError
from seebench.models.backends.base import Generation
from seebench.models.chat import Prompt
from seebench.secrets import check_variable_name, register_secret

DEFAULT_BASE_URL = "https://api.openai.com/v1"
BASE_URL_ENV = "OPENAI_BASE_URL"
API_KEY_ENV = "OPENAI_API_KEY"
T = TypeVar("T")


def redact_url(url: str) -> str:
    """``url`` without user name and password."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path, parts.query, parts.fragment))


class OpenAIBackend:
    """Sends each prompt as one chat-completions request."""

    name = "openai"

    def __init__(
        self,
        model: str,
        *,
        max_new_tokens: int,
        temperature: float = 0.0,
        base_url: str | None = None,
        api_key_env: str = API_KEY_ENV,
        concurrency: int = 4,
        timeout_s: float = 60.0,
        max_retries: int = 5,
        retry_base_s: float = 1.0,
        retry_max_s: float = 60.0,
        logprobs: bool = True,
        seed: int | None = None,
        price_input: float | None = None,
        price_output: float | None = None,
        api_key: str | None = None,
    ):
        try:
            import aiohttp  # noqa: F401
        except ImportError:
            raise ModelError(
                "the openai backend needs aiohttp: pip install 'seebench[api]'"
            ) from None
        self.model = model
        self.base_url = (base_url or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).rstrip("/")
        check_variable_name("api_key_env", api_key_env)  # a pasted key: one line, not echoed
        self._api_key = api_key or os.environ.get(api_key_env) or None
        register_secret(self._api_key)  # never written: results, samples, cache and logs scrub it
        self.max_new_tokens = int(max_new_tokens)
        self.temperature = float(temperature)
        self.concurrency = max(1, int(concurrency))
        self.timeout_s = float(timeout_s)
        self.max_retries = max(0, int(max_retries))
        self.retry_base_s = float(retry_base_s)
        self.retry_max_s = float(retry_max_s)
        self.logprobs = bool(logprobs)
        self.seed = seed
        self.prices = (price_input, price_output)  # USD per million tokens
        self._lock = threading.Lock()
        self._retry_reasons: Counter[str] = Counter()
        self._requests = 0
        self._failed = 0
        self._usage = {"prompt_tokens": 0, "completion_tokens": 0}

    def identity(self) -> dict[str, Any]:
        return {"backend": self.name, "base_url": redact_url(self.base_url)}

    def params(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_new_tokens,
            "temperature": self.temperature,
            "logprobs": self.logprobs,
        }
        if self.seed is not None:
            params["seed"] = self.seed
        return params

    def info(self) -> dict[str, Any]:
        with self._lock:
            usage = {**self._usage, "total_tokens": sum(self._usage.values())}
            cost = None
            if self.prices[0] is not None or self.prices[1] is not None:
                cost = (
                    (self.prices[0] or 0.0) * usage["prompt_tokens"]
                    + (self.prices[1] or 0.0) * usage["completion_tokens"]
                ) / 1e6
            return {
                "base_url": redact_url(self.base_url),
                "concurrency": self.concurrency,
                "timeout_s": self.timeout_s,
                "requests": self._requests,
                "retries": sum(self._retry_reasons.values()),
                "retry_reasons": dict(sorted(self._retry_reasons.items())),
                "failed_requests": self._failed,
                "usage": usage,
                "cost_usd": cost,
            }

    def _headers(self) -> dict[str, str]:
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _pool_key(self) -> tuple[Any, ...]:
        """Which requests share a pool of ``concurrency`` slots: those to the same server."""
        return ("openai", self.base_url)

    def in_flight_peak(self) -> int:
        """The most requests that were in flight at once to this backend's server (from any
        backend of this process with the same URL and ``concurrency``)."""
        from seebench.models.backends.request_loop import request_loop

        return request_loop().peak(self._pool_key(), self.concurrency)

    def _send(
        self, count: int, request: Callable[[Any, int], Awaitable[T]]
    ) -> Iterator[tuple[int, T]]:
        """``request(pool, i)`` for ``i < count`` on the process's request loop, sharing the
        server's pool; ``(i, result)`` as each ends. On Ctrl-C the requests still running
        are cancelled and :meth:`_interrupted` is called."""
        from seebench.models.backends.request_loop import request_loop

        loop = request_loop()
        key, limit = self._pool_key(), self.concurrency

        def one(index: int) -> Awaitable[T]:
            return request(loop.pool(key, limit), index)

        try:
            yield from loop.run(count, one)
        except KeyboardInterrupt:
            self._interrupted()
            raise

    def generate(self, prompts: Sequence[Prompt]) -> Iterator[tuple[int, Generation]]:
        headers = self._headers()
        return self._send(len(prompts), lambda pool, i: self._request(pool, prompts[i], headers))

    def _interrupted(self) -> None:
        """Called on Ctrl-C after the requests in flight were cancelled (a subclass may end
        more, e.g. by stopping the server it started)."""

    def _body(self, prompt: Prompt) -> dict[str, Any]:
        body: dict[str, Any] = {"messages": list(prompt.messages), **self.params()}
        if not self.logprobs:
            body.pop("logprobs")
        return body

    async def _request(self, pool: Any, prompt: Prompt, headers: dict[str, str]) -> Generation:
        """One prompt's reply, retried as the module docstring says; it holds one of the
        server's slots from its first attempt to its last."""
        url = f"{self.base_url}/chat/completions"
        retries: list[str] = []
        async with pool.slot():
            for attempt in range(self.max_retries + 1):
                outcome = await self._attempt(pool, url, self._body(prompt), headers)
                if isinstance(outcome, Generation):
                    outcome.retries = retries
                    if outcome.error is not None:
                        self._count(failed=1)
                    return outcome
                reason, retry_after = outcome
                if attempt == self.max_retries:
                    return self._fail(
                        f"gave up after {attempt + 1} attempts, last: {reason}", retries
                    )
                await self._before_retry_async(reason)
                retries.append(reason)
                self._count(retry=reason)
                delay = self.retry_base_s * 2**attempt * (1 + random.random() / 4)
                await asyncio.sleep(min(self.retry_max_s, max(delay, retry_after or 0.0)))
        raise AssertionError("unreachable")

    async def _attempt(
        self, pool: Any, url: str, body: dict[str, Any], headers: dict[str, str]
    ) -> Generation | tuple[str, float | None]:
        """One attempt: a generation (a reply, or an error retrying cannot help), or why it
        is worth retrying and the server's ``Retry-After``."""
        import aiohttp

        self._count(requests=1)
        try:
            status, reply_headers, data = await pool.post(url, body, headers, self.timeout_s)
        except TimeoutError:
            return "timeout", None
        except (aiohttp.ClientError, OSError) as exc:
            return f"connection error ({type(exc).__name__})", None
        if status == 200:
            generation = self._read(data)
            return generation if generation is not None else ("malformed response", None)
        if status == 429 or status >= 500:
            return f"HTTP {status}", _seconds(reply_headers.get("retry-after"))
        text = self._scrub(data.decode("utf-8", "replace"))[:200]  # 400, 401, 404...
        return Generation(None, error=f"request failed: HTTP {status}: {text}")

    async def _before_retry_async(self, reason: str) -> None:
        """:meth:`_before_retry` in a thread of its own (it may wait), off the loop."""
        if type(self)._before_retry is not OpenAIBackend._before_retry:
            await asyncio.to_thread(self._before_retry, reason)

    def _before_retry(self, reason: str) -> None:
        """Called before a failed request is retried; a subclass may raise to stop the run
        (a managed server that has died)."""

    def _count(self, requests: int = 0, failed: int = 0, retry: str | None = None) -> None:
        with self._lock:
            self._requests += requests
            self._failed += failed
            if retry is not None:
                self._retry_reasons[retry] += 1

    def _fail(self, error: str, retries: list[str]) -> Generation:
        self._count(failed=1)
        return Generation(None, error=f"request failed: {error}", retries=retries)

    def _read(self, data: bytes) -> Generation | None:
        """The generation in a 200 reply's body, or ``None`` if it is not a completion."""
        try:
            parsed = json.loads(data)
            choice = parsed["choices"][0]
            text = choice["message"].get("content") or ""
        except (ValueError, KeyError, IndexError, TypeError, AttributeError, RecursionError):
            return None
        usage = _usage(parsed.get("usage"))
        if usage:
            with self._lock:
                for key, value in usage.items():
                    self._usage[key] += value
        return Generation(
            text=str(text), confidence=_confidence(choice.get("logprobs")), usage=usage
        )

    def loglikelihood(
        self, prompts: Sequence[Prompt], options: Sequence[Sequence[str]]
    ) -> Iterator[tuple[int, list[Any] | str]]:
        """Option log-likelihoods from the server's ``/completions`` endpoint: the prompt's
        text plus each option, sent with ``echo`` and ``logprobs`` so that the server returns
        the log-probability of every prompt token (vLLM, llama.cpp and most OpenAI-compatible
        servers do). The option's tokens are those the server's tokenizer placed at or after
        the prompt's end (``text_offset``). A server that returns no prompt log-probabilities
        stops the run with one line naming the model."""
        from seebench.models.backends.loglik import plain_context

        jobs = [
            (index, option, plain_context(prompt))
            for index, (prompt, verbalisers) in enumerate(zip(prompts, options, strict=True))
            for option in verbalisers
        ]
        headers = self._headers()
        scores: dict[int, list[Any]] = {i: [None] * len(o) for i, o in enumerate(options)}
        failed: dict[int, str] = {}
        replies = self._send(len(jobs), lambda pool, i: self._score(pool, jobs[i], headers))
        for number, value in replies:  # a ModelError (no prompt logprobs) stops the run
            index, option, _ = jobs[number]
            if isinstance(value, str):
                failed[index] = value
            else:
                scores[index][list(options[index]).index(option)] = value
        for index in range(len(prompts)):
            yield index, failed[index] if index in failed else scores[index]

    async def _score(self, pool: Any, job: tuple[int, str, str], headers: dict[str, str]) -> Any:
        """One option's score (an ``OptionScore``), or the server's refusal in one line."""
        from seebench.models.backends.loglik import completion_request, read_echoed

        _, option, context = job
        body = completion_request(self.model, context, option)
        async with pool.slot():
            self._count(requests=1)
            status, _, data = await pool.post(
                f"{self.base_url}/completions", body, headers, self.timeout_s
            )
        if status != 200:
            return f"HTTP {status}: {self._scrub(data.decode('utf-8', 'replace'))[:200]}"
        return read_echoed(self.model, _Reply(data), context, option)

    def _scrub(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key else text


def make_backend(
    model: Any,
    options: dict[str, Any],
    *,
    max_new_tokens: int,
    temperature: float,
    seed: int,
    seeded: bool = False,
) -> OpenAIBackend:
    """The ``openai`` backend's factory (registered in :mod:`seebench.models.plugin`); the
    API's ``seed`` is sent only when asked for (an option, or a seeded sample)."""
    from seebench.models.options import OPENAI_OPTIONS

    extra = {k: options[k] for k in OPENAI_OPTIONS if k in options}
    return OpenAIBackend(
        model.identity["model"],
        max_new_tokens=max_new_tokens,
        temperature=temperature,
        seed=seed if seeded else options.get("seed"),
        **extra,
    )


def _confidence(logprobs: Any) -> float | None:
    """exp(sum of the reply's token log-probabilities), if the server returned them."""
    try:
        values = [float(item["logprob"]) for item in logprobs["content"]]
    except (TypeError, KeyError, ValueError):
        return None
    total = sum(values)
    return math.exp(total) if values and math.isfinite(total) else None


def _usage(value: Any) -> dict[str, int]:
    """Token counts of a reply; a malformed ``usage`` field costs the accounting, not the reply."""
    if not isinstance(value, dict):
        return {}
    usage = {}
    for key in ("prompt_tokens", "completion_tokens"):
        try:
            usage[key] = max(0, int(value.get(key) or 0))
        except (TypeError, ValueError):
            return {}
    return usage


class _Reply:
    """A reply's body as :func:`~seebench.models.backends.loglik.read_echoed` reads it."""

    def __init__(self, data: bytes) -> None:
        self._data = data

    def json(self) -> Any:
        return json.loads(self._data)


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
