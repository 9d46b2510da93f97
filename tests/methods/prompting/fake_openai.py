"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, with fault injection.

The reply to a request depends on markers in the instance being classified (the text after
``to classify:`` in the last user message), so the faults follow the sample, not the order:

- ``[429-once]`` HTTP 429 (``Retry-After: 0``) on the first attempt, then an answer;
- ``[500-twice]`` / ``[500-always]`` HTTP 500 on the first two / on every attempt;
- ``[slow-once]`` / ``[slow-always]`` answers after ``slow_s`` (longer than the client's timeout);
- ``[badjson-once]`` / ``[badjson-always]`` a 200 whose body is not JSON;
- ``[401-echo]`` HTTP 401 whose body echoes the Authorization header (as some servers do);
- ``[nolabel]`` a well-formed answer that is not a label;
- ``[echo-key]`` an answer that repeats the caller's API key after the label;
- ``[bad-usage]`` an answer whose ``usage`` field is malformed;
- ``[think]`` the answer after a ``<think>...</think>`` reasoning part; ``[think-cut]`` a reply
  that ends inside its reasoning (no ``</think>``, as when ``max_tokens`` runs out);
- every request that is not slow is held open 50 ms (``max_in_flight`` counts overlaps);
- ``expect=<label>`` otherwise: answers ``<label>``, decorated (``" **Label**. "``).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeOpenAI:
    """Start with ``with FakeOpenAI() as server:``; ``server.base_url`` is ``http://127.0.0.1:PORT/v1``."""

    def __init__(self, slow_s: float = 1.0):
        self.slow_s = slow_s
        self.attempts: Counter[str] = Counter()
        self.bodies: list[dict] = []
        self.authorization: set[str] = set()
        self.in_flight = 0
        self.max_in_flight = 0
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def requests(self) -> int:
        return sum(self.attempts.values())

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self._answer()  # a broken pipe: the client gave up (timeout)

            def _hold(self) -> None:
                """Keep the request open briefly, so concurrent requests overlap."""
                with server.lock:
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                time.sleep(0.05)
                with server.lock:
                    server.in_flight -= 1

            def _send(self, status: int, body: bytes, headers: dict | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

            def _answer(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                query = body["messages"][-1]["content"].split("to classify:")[-1]
                with server.lock:
                    attempt = server.attempts[query]
                    server.attempts[query] += 1
                    server.bodies.append(body)
                    server.authorization.add(self.headers.get("Authorization", ""))
                if "[429-once]" in query and attempt == 0:
                    return self._send(429, b'{"error": "rate limited"}', {"Retry-After": "0"})
                if "[500-always]" in query or ("[500-twice]" in query and attempt < 2):
                    return self._send(500, b'{"error": "boom"}')
                if "[401-echo]" in query:
                    echoed = f'{{"error": "bad key {self.headers.get("Authorization", "")}"}}'
                    return self._send(401, echoed.encode())
                if "[slow-always]" in query or ("[slow-once]" in query and attempt == 0):
                    time.sleep(server.slow_s)  # the client has given up: not counted in flight
                else:
                    self._hold()
                if "[badjson-always]" in query or ("[badjson-once]" in query and attempt == 0):
                    return self._send(200, b'{"choices": [{"message": ')
                match = re.search(r"expect=(\S+)", query)
                content = (
                    "I am not sure about this one."
                    if "[nolabel]" in query or not match
                    else f" **{match.group(1).title()}**. "
                )
                if "[think]" in query:
                    content = (
                        "<think>Is it a defect? The text says expect, so yes.</think>" + content
                    )
                if "[think-cut]" in query:
                    content = "<think>Is it a defect? Let me weigh every word of it, first"
                if "[echo-key]" in query:
                    content += (
                        " (called with "
                        + self.headers.get("Authorization", "").removeprefix("Bearer ")
                        + ")"
                    )
                reply = {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": content},
                            "logprobs": {"content": [{"token": content, "logprob": -0.25}]},
                        }
                    ],
                    "usage": {"prompt_tokens": 100, "completion_tokens": 3, "total_tokens": 103},
                }
                if "[bad-usage]" in query:
                    reply["usage"] = {"prompt_tokens": "many", "completion_tokens": None}
                return self._send(200, json.dumps(reply).encode())

        return Handler
