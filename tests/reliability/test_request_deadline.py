"""Timeouts that bound a request (class 8): ``timeout_s`` of the OpenAI-compatible client is a
deadline for the whole request, however slowly a server trickles its reply."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

pytest.importorskip("aiohttp", reason="the openai backend needs the api extra")

from seebench.models.backends.openai import OpenAIBackend  # noqa: E402
from seebench.models.chat import Prompt  # noqa: E402

BODY = json.dumps({"choices": [{"message": {"content": "bug"}}]}).encode()
REPLY = (
    b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
    + f"Content-Length: {len(BODY)}\r\n\r\n".encode()
    + BODY
)
#: Seconds between two trickled bytes: far below the per-read timeout, so only a deadline for
#: the whole request stops it (the whole reply would take several seconds).
TRICKLE_S = 0.03


class TrickleServer:
    """A one-thread HTTP server on 127.0.0.1: ``mode`` ``fast`` answers at once; ``headers``
    trickles the whole reply one byte at a time; ``body`` sends the headers, then trickles the
    body. Every connection is bounded (the reply's length) and the server stops on close."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> TrickleServer:
        self.thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stopped.set()
        self.thread.join(timeout=10)
        self.listener.close()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            with connection:  # keep-alive: answer until the client closes (bounded by 5 s idle)
                while not self.stopped.is_set() and self._answer(connection):
                    pass

    def _answer(self, connection: socket.socket) -> bool:
        """Answer one request; whether the connection may carry another."""
        connection.settimeout(5)
        data = b""
        while b"\r\n\r\n" not in data:
            try:
                chunk = connection.recv(65536)
            except OSError:
                return False
            if not chunk:
                return False
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(
            next(
                line.split(b":")[1]
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length")
            )
        )
        while len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                return False
            body += chunk
        split = 0 if self.mode == "headers" else REPLY.index(b"\r\n\r\n") + 4
        if self.mode == "fast":
            split = len(REPLY)
        try:
            connection.sendall(REPLY[:split])
            for byte in REPLY[split:]:
                if self.stopped.is_set():
                    return False
                connection.sendall(bytes([byte]))
                time.sleep(TRICKLE_S)
        except OSError:  # the client gave up: what a deadline does
            return False
        return self.mode == "fast"


def _ask(port: int, timeout_s: float, count: int = 1):
    backend = OpenAIBackend(
        "m",
        max_new_tokens=4,
        base_url=f"http://127.0.0.1:{port}/v1",
        api_key_env="SEEBENCH_TEST_NO_KEY",
        timeout_s=timeout_s,
        max_retries=0,
        concurrency=1,
        logprobs=False,
    )
    prompts = [Prompt(f"s{i}", ({"role": "user", "content": "hi"},)) for i in range(count)]
    return [generation for _, generation in sorted(backend.generate(prompts), key=lambda x: x[0])]


@pytest.mark.parametrize("mode", ["headers", "body"])
def test_a_trickling_server_hits_the_deadline(mode):
    with TrickleServer(mode) as server:
        [generation] = _ask(server.port, timeout_s=0.5)
    assert generation.text is None and "timeout" in generation.error


def test_a_prompt_server_is_answered_within_the_deadline():
    with TrickleServer("fast") as server:
        generations = _ask(server.port, timeout_s=5, count=3)  # one kept-alive connection
    assert [g.text for g in generations] == ["bug", "bug", "bug"]
