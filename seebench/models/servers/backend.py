"""The backend of a managed server: the OpenAI-compatible client, pointed at the server.

Everything the ``openai`` backend does applies (concurrency, retries, accounting, secret
scrubbing, the response cache through the model client); what differs:

- the backend's identity (part of every cache key) is the server's name and version, never
  its URL: the port changes on every start, the replies do not;
- the server starts on the first request that is not in the cache (a rerun whose replies
  are all cached never starts it);
- ``concurrency`` defaults to the server's parallel slots;
- a request that fails while the server is gone stops the unit with one line (the server's
  last log lines and how to resume) instead of retrying a dead port.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from typing import Any

from seebench.models import ModelRef
from seebench.models.backends.base import Generation
from seebench.models.backends.openai import OpenAIBackend
from seebench.models.chat import Prompt
from seebench.models.servers.kinds import server_kind
from seebench.models.servers.options import SERVED_CLIENT_OPTIONS
from seebench.models.servers.process import (
    ManagedServer,
    ServerError,
    get_server,
    server_options_of,
)

DEFAULT_TIMEOUT_S = 600.0  # a local server answers slowly when many requests queue
DEFAULT_MAX_RETRIES = 2
DEATH_CONFIRM_S = 1.5  # the supervisor notices an exited server within 0.5 s
NOT_STARTED = "http://127.0.0.1:0/v1"  # replaced by the server's URL once it runs


class ServedBackend(OpenAIBackend):
    """Chat completions from a server that seebench starts on the first uncached request."""

    def __init__(self, model: ModelRef, server_options: dict[str, Any], **options: Any):
        self.kind = server_kind(model.options["serve"])
        self.model_ref = model
        self.server_options = server_options_of(self.kind, server_options)
        self.server: ManagedServer | None = None
        self.name = self.kind.name
        parallel = self.server_options.get("parallel", self.kind.default_parallel)
        options.setdefault("concurrency", parallel)
        options.setdefault("timeout_s", DEFAULT_TIMEOUT_S)
        options.setdefault("max_retries", DEFAULT_MAX_RETRIES)
        options.setdefault("retry_base_s", 0.5)
        super().__init__(model.identity["model"], base_url=NOT_STARTED, **options)

    def identity(self) -> dict[str, Any]:
        return {
            "backend": self.name,
            "server_version": self.model_ref.identity.get("server_version"),
            "server_options": {
                k: v for k, v in sorted(self.server_options.items()) if k != "startup_timeout_s"
            },
        }

    def info(self) -> dict[str, Any]:
        info = super().info()
        info.pop("base_url", None)  # the port says nothing about the result
        info["server"] = self.server.summary() if self.server else {"started": False}
        return info

    def generate(self, prompts: Sequence[Prompt]) -> Iterator[tuple[int, Generation]]:
        if not prompts:
            return iter(())
        server = get_server(self.model_ref, self.server_options)
        self.server, self.base_url, self._api_key = server, server.base_url, server.api_key
        return super().generate(prompts)

    def loglikelihood(
        self, prompts: Sequence[Prompt], options: Sequence[Sequence[str]]
    ) -> Iterator[tuple[int, list[Any] | str]]:
        """Option log-likelihoods from the server's completions endpoint (started now)."""
        if not prompts:
            return iter(())
        server = get_server(self.model_ref, self.server_options)
        self.server, self.base_url, self._api_key = server, server.base_url, server.api_key
        return super().loglikelihood(prompts, options)

    def _interrupted(self) -> None:
        if self.server is not None:
            self.server.stop()  # the requests in flight end now, not when they are answered

    async def _request(self, pool: Any, prompt: Prompt, headers: dict[str, str]) -> Generation:
        self._check_alive()  # a poll: does not wait
        generation = await super()._request(pool, prompt, headers)
        if generation.error is not None:
            wait_s = DEATH_CONFIRM_S if "connection" in generation.error else 0
            await asyncio.to_thread(self._check_alive, wait_s)  # off the request loop
        return generation

    def _before_retry(self, reason: str) -> None:
        self._check_alive(wait_s=DEATH_CONFIRM_S if reason.startswith("connection") else 0)

    def _check_alive(self, wait_s: float = 0.0) -> None:
        """Raise :class:`ServerError` if the server has exited (waiting up to ``wait_s`` for
        its supervisor to notice, after a failed request)."""
        if self.server is not None and not self.server.alive(wait_s):
            raise ServerError(self.server.died_message("mid-run"))


def served_backend(
    model: ModelRef,
    options: dict[str, Any],
    *,
    max_new_tokens: int,
    temperature: float,
    seed: int | None,
    seeded: bool = False,
) -> ServedBackend:
    """The backend of ``model``'s managed server (the managed kinds' registered factory)."""
    client = {k: options[k] for k in SERVED_CLIENT_OPTIONS if k in options}
    return ServedBackend(
        model,
        options,
        max_new_tokens=max_new_tokens,
        temperature=temperature,
        seed=seed if seeded else options.get("seed"),
        **client,
    )
