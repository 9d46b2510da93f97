"""An OpenAI-compatible chat-completions client (OpenAI, vLLM, llama.cpp server, ...).

Requests run concurrently up to ``concurrency``; HTTP 429 and 5xx replies, timeouts, broken
connections and malformed JSON are retried with exponential backoff (``Retry-After`` is
honoured, capped by ``retry_max_s``); other HTTP errors fail at once. A request that still
fails becomes a generation with an ``error``: the sample is then invalid with that reason,
never dropped. The API key is read from the environment at run time and never appears in
identities, parameters, errors or accounting.
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from seebench.errors import ModelError
from seebench.models.backends.base import Generation
from seebench.models.chat import Prompt
from seebench.secrets import check_variable_name, register_secret

DEFAULT_BASE_URL = "https://api.openai.com/v1"
BASE_URL_ENV = "OPENAI_BASE_URL"
API_KEY_ENV = "OPENAI_API_KEY"


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
            import httpx
        except ImportError:
            raise ModelError(
                "the openai backend needs httpx: pip install 'seebench[api]'"
            ) from None
        self._httpx = httpx
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

    def generate(self, prompts: Sequence[Prompt]) -> Iterator[tuple[int, Generation]]:
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        from seebench.models.backends.deadline import deadline_transport

        timeout = self._httpx.Timeout(self.timeout_s)
        transport = deadline_transport(self._httpx)  # timeout_s bounds each whole request
        with (
            self._httpx.Client(headers=headers, timeout=timeout, transport=transport) as client,
            ThreadPoolExecutor(max_workers=self.concurrency) as pool,
        ):
            futures = {pool.submit(self._request, client, p): i for i, p in enumerate(prompts)}
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            except KeyboardInterrupt:
                pool.shutdown(wait=False, cancel_futures=True)
                self._interrupted()
                raise

    def _interrupted(self) -> None:
        """Called on Ctrl-C before waiting for the requests in flight (a subclass may end
        them, e.g. by stopping the server it started)."""

    def _body(self, prompt: Prompt) -> dict[str, Any]:
        body: dict[str, Any] = {"messages": list(prompt.messages), **self.params()}
        if not self.logprobs:
            body.pop("logprobs")
        return body

    def _request(self, client: Any, prompt: Prompt) -> Generation:
        from seebench.models.backends.deadline import request_deadline

        httpx = self._httpx
        url = f"{self.base_url}/chat/completions"
        retries: list[str] = []
        for attempt in range(self.max_retries + 1):
            retry_after = None
            with self._lock:
                self._requests += 1
            try:
                with request_deadline(self.timeout_s):
                    response = client.post(url, json=self._body(prompt))
            except httpx.TimeoutException:
                reason = "timeout"
            except httpx.TransportError as exc:
                reason = f"connection error ({type(exc).__name__})"
            else:
                if response.status_code == 200:
                    generation = self._read(response)
                    if generation is not None:
                        generation.retries = retries
                        return generation
                    reason = "malformed response"
                elif response.status_code == 429 or response.status_code >= 500:
                    reason = f"HTTP {response.status_code}"
                    retry_after = _seconds(response.headers.get("retry-after"))
                else:  # 400, 401, 404...: retrying cannot help
                    return self._fail(
                        f"HTTP {response.status_code}: {self._scrub(response.text)[:200]}", retries
                    )
            if attempt == self.max_retries:
                return self._fail(f"gave up after {attempt + 1} attempts, last: {reason}", retries)
            self._before_retry(reason)
            retries.append(reason)
            with self._lock:
                self._retry_reasons[reason] += 1
            delay = self.retry_base_s * 2**attempt * (1 + random.random() / 4)
            time.sleep(min(self.retry_max_s, max(delay, retry_after or 0.0)))
        raise AssertionError("unreachable")

    def _before_retry(self, reason: str) -> None:
        """Called before a failed request is retried; a subclass may raise to stop the run
        (a managed server that has died)."""

    def _fail(self, error: str, retries: list[str]) -> Generation:
        with self._lock:
            self._failed += 1
        return Generation(None, error=f"request failed: {error}", retries=retries)

    def _read(self, response: Any) -> Generation | None:
        """The generation in a 200 reply, or ``None`` if the body is not a completion."""
        try:
            data = response.json()
            choice = data["choices"][0]
            text = choice["message"].get("content") or ""
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            return None
        usage = _usage(data.get("usage"))
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
        from seebench.models.backends.loglik import (
            completion_request,
            plain_context,
            read_echoed,
        )

        jobs = [
            (index, option, plain_context(prompt))
            for index, (prompt, verbalisers) in enumerate(zip(prompts, options, strict=True))
            for option in verbalisers
        ]
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        scores: dict[int, list[Any]] = {i: [None] * len(o) for i, o in enumerate(options)}
        failed: dict[int, str] = {}
        with (
            self._httpx.Client(headers=headers, timeout=self.timeout_s) as client,
            ThreadPoolExecutor(max_workers=self.concurrency) as pool,
        ):

            def one(job: tuple[int, str, str]) -> Any:
                index, option, context = job
                body = completion_request(self.model, context, option)
                response = client.post(f"{self.base_url}/completions", json=body)
                with self._lock:
                    self._requests += 1
                if response.status_code != 200:
                    return f"HTTP {response.status_code}: {self._scrub(response.text)[:200]}"
                return read_echoed(self.model, response, context, option)

            futures = {pool.submit(one, job): job for job in jobs}
            for future in as_completed(futures):
                index, option, _ = futures[future]
                value = future.result()  # a ModelError (no prompt logprobs) stops the run
                if isinstance(value, str):
                    failed[index] = value
                else:
                    scores[index][list(options[index]).index(option)] = value
        for index in range(len(prompts)):
            yield index, failed[index] if index in failed else scores[index]

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


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value else None
    except ValueError:
        return None
