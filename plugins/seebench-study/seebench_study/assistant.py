"""The study's model calls, made on the server through seebench's model client.

One :class:`Assistant` per condition with a model. Requests to an API model run concurrently,
up to the condition's ``concurrency`` option (default 4); a local model answers one request at
a time (it is not thread-safe). No key or model option is ever sent to the browser: it gets
the suggestion or reply text only.

A managed server (``llamacpp:``, ``vllm:``, ``sglang:`` model specs, see
:mod:`seebench.models.servers`) is started once, at start-up (:meth:`Assistant.warm_up`) or on
the first request, and kept for the app's life; conditions on the same model and server
options share it, for suggestions and chat alike. Requests to it run up to its parallel slots
at once. A server that dies is started again on the next request (a failed start is retried
after :data:`RESTART_AFTER_S`); :meth:`Assistant.close` stops it when the app shuts down.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from typing import Any

from seebench.errors import SeebenchError
from seebench.models.servers import is_served
from seebench_study.definition import Condition

#: Prompts written for seebench. A chat model is asked for the code at the cursor; small models
#: often answer with a fenced block that repeats the line before the cursor, which
#: :func:`clean_completion` removes.
COMPLETION_SYSTEM = (
    "You complete Python code. The user shows a Python file with the marker <CURSOR> where "
    "the cursor is. Reply with only the code that belongs at <CURSOR>, nothing else."
)
CHAT_SYSTEM = (
    "You are an experienced Python programmer helping a user. Answer helpfully and write any "
    "code in Python."
)
_FENCED = re.compile(r"```[A-Za-z0-9_+-]*[ \t]*\n(.*?)(?:```|$)", re.S)
#: The longest prefix/suffix sent to the model (characters nearest the cursor).
CONTEXT_CHARS = 6000
log = logging.getLogger("seebench.study")
#: Seconds a managed server that failed to start is not tried again (requests fail at once).
RESTART_AFTER_S = 30.0
#: Model client options of a study condition unless it sets them, by kind: a participant must
#: not wait a minute for a model that is down (a suggestion is useless after 10 s; a chat reply
#: of 512 tokens may take longer).
STUDY_CLIENT_DEFAULTS = {
    "autocomplete": {"cache": False, "timeout_s": 10.0, "max_retries": 0},
    "chat": {"cache": False, "timeout_s": 30.0, "max_retries": 0},
}


#: One worked exchange shown before the real request: small chat models copy its form.
COMPLETION_EXAMPLE = (
    {"role": "user", "content": "```python\ndef area(width, height):\n    <CURSOR>\n```"},
    {"role": "assistant", "content": "```python\nreturn width * height\n```"},
)


def completion_messages(prefix: str, suffix: str) -> list[dict[str, str]]:
    """The chat request that asks a chat model for the text at the cursor."""
    code = f"{prefix[-CONTEXT_CHARS:]}<CURSOR>{suffix[:CONTEXT_CHARS]}"
    return [
        {"role": "system", "content": COMPLETION_SYSTEM},
        *COMPLETION_EXAMPLE,
        {"role": "user", "content": f"```python\n{code}\n```"},
    ]


def clean_completion(text: str, prefix: str) -> str:
    """The model's reply as text to insert at the cursor.

    The first fenced block is taken when there is one; a repetition of the code before the
    cursor (up to its last non-blank line) is cut, and so is the indentation the cursor's
    line already has.
    """
    fenced = _FENCED.search(text)
    if fenced:
        text = fenced.group(1)
    text = text.replace("<CURSOR>", "").rstrip()
    current = prefix.rsplit("\n", 1)[-1]
    lines = text.split("\n")
    if current.strip():
        if text.startswith(current):
            return text[len(current) :]
        if text.lstrip().startswith(current.lstrip()):
            return text.lstrip()[len(current.lstrip()) :]
        return text
    before = [line.strip() for line in prefix.split("\n") if line.strip()]
    if before and before[-1] in (line.strip() for line in lines):
        cut = max(i for i, line in enumerate(lines) if line.strip() == before[-1])
        lines = lines[cut + 1 :]
    while lines and not lines[0].strip():
        lines.pop(0)
    if lines and current:  # the cursor's line already has its indentation
        first = lines[0]
        lines[0] = first[len(current) :] if first.startswith(current) else first.lstrip()
    return "\n".join(lines)


class Assistant:
    """The model of one condition: suggestions (autocomplete) or replies (chat)."""

    def __init__(self, condition: Condition) -> None:
        self.condition = condition
        self._client: Any = None
        self._completion: Any = None
        self._build_lock = threading.Lock()
        self._slots: threading.Semaphore | None = None
        self._server_lock = threading.Lock()
        self._server: Any = None  # the managed server this assistant started or joined
        self._start_failed: tuple[float, str] | None = None  # (when, why) of a failed start

    @property
    def options(self) -> dict[str, Any]:
        return {**STUDY_CLIENT_DEFAULTS.get(self.condition.kind, {}), **self.condition.options}

    def client(self) -> Any:
        """The model client, resolved and built on first use."""
        with self._build_lock:
            if self._client is None:
                from seebench.models import resolve_model
                from seebench.models.client import ModelClient

                model, _ = resolve_model(str(self.condition.model))
                client = ModelClient(model, self.options)
                if is_served(model):  # the server's parallel slots, or the concurrency option
                    width = client.max_in_flight()
                elif model.kind == "openai":
                    width = int(self.options.get("concurrency", 4))
                else:
                    width = 1
                self._slots = threading.BoundedSemaphore(max(1, width))
                self._client = client
            return self._client

    def completion_model(self) -> Any:
        """The completions-endpoint model of an autocomplete condition with ``completion``."""
        with self._build_lock:
            if self._completion is None:
                from seebench_study.completions import CompletionModel

                spec = str(self.condition.model)
                name = spec.split(":", 1)[1] if spec.startswith("openai:") else spec
                settings = self.condition.completion or {}
                self._completion = CompletionModel(
                    name, settings["format"], self.options, list(settings.get("stop") or [])
                )
                width = int(self.options.get("concurrency", 4))
                self._slots = threading.BoundedSemaphore(max(1, width))
            return self._completion

    def served(self) -> bool:
        """Whether the condition's model runs on a server that seebench manages."""
        return not self.condition.completion and is_served(self.client().model)

    def ensure_server(self) -> Any:
        """The condition's managed server, started now if it does not run (``None`` for a
        model that is not served). A server that died is replaced; a start that failed less
        than :data:`RESTART_AFTER_S` ago raises its error again without a new try."""
        if not self.served():
            return None
        from seebench.models.servers.process import ServerError, get_server, release

        client = self.client()
        with self._server_lock:
            if self._server is not None and self._server.alive():
                return self._server
            if self._server is not None:  # it died: the next request gets a new one
                reason = self._server.died_message("while serving")
                release(self._server)
                self._server = None
                log.warning("study %s: %s; starting it again", self.condition.id, reason)
            if self._start_failed is not None:
                failed_at, reason = self._start_failed
                if time.monotonic() - failed_at < RESTART_AFTER_S:
                    raise SeebenchError(reason)
            try:
                self._server = get_server(client.model, client.options)
            except ServerError as exc:
                self._start_failed = (time.monotonic(), str(exc))
                raise
            self._start_failed = None
            return self._server

    def close(self) -> None:
        """Stop the managed server this assistant started or joined (at app shutdown)."""
        with self._server_lock:
            server, self._server = self._server, None
        if server is not None:
            from seebench.models.servers.process import release

            release(server)

    def _generate(
        self, messages: list[dict[str, str]], max_tokens: int, temperature: float
    ) -> tuple[str, int]:
        started = time.monotonic()
        client = self.client()
        self.ensure_server()
        assert self._slots is not None
        with self._slots:
            generation = client.chat(
                messages, max_new_tokens=max_tokens, temperature=temperature, item_id="study"
            )
        if generation.text is None:
            raise SeebenchError(f"model {self.condition.model}: {generation.error or 'no reply'}")
        return generation.text, int((time.monotonic() - started) * 1000)

    def suggest(self, prefix: str, suffix: str, max_tokens: int, temperature: float) -> str:
        if self.condition.completion:
            model = self.completion_model()
            assert self._slots is not None
            with self._slots:
                return model.complete(
                    prefix[-CONTEXT_CHARS:], suffix[:CONTEXT_CHARS], max_tokens, temperature
                )
        text, _ = self._generate(completion_messages(prefix, suffix), max_tokens, temperature)
        return clean_completion(text, prefix)

    def reply(self, history: list[dict[str, str]], max_tokens: int, temperature: float) -> str:
        messages = [{"role": "system", "content": CHAT_SYSTEM}, *history]
        text, _ = self._generate(messages, max_tokens, temperature)
        return text.strip()

    def warm_up(self) -> None:
        """Load the model now (a local model takes seconds), so participants do not wait.

        A local model generates one token to load its weights; a managed server is started
        (and kept until :meth:`close`); an API model is not called.
        """
        if self.condition.completion:
            self.completion_model()
            return
        client = self.client()
        if self.served():
            self.ensure_server()
            return
        if client.model.kind == "hf":
            assert self._slots is not None
            with self._slots:
                client.chat([{"role": "user", "content": "hi"}], max_new_tokens=1)

    def probe(self) -> str | None:
        """Ask the model for one token; a line saying why it failed, or ``None`` when it
        answered (``serve``'s start-up check)."""
        try:
            if self.condition.completion:
                self.suggest("def f():\n    ", "", 1, 0.0)
            else:
                self._generate([{"role": "user", "content": "hi"}], 1, 0.0)
        except SeebenchError as exc:
            return str(exc)
        return None
