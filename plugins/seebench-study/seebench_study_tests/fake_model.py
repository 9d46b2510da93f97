"""A fake OpenAI-compatible chat-completions server on 127.0.0.1 for the study tests.

A completion request (its system message mentions ``<CURSOR>``) gets :data:`COMPLETION`; a
chat request gets :data:`CHAT_REPLY`, which holds one Python code block. A request to
``/v1/completions`` (a base model's completions endpoint) gets :data:`FIM_MIDDLE` as its
``text``. Every request body and Authorization header is kept, so tests can check what the
server sent to the model. ``delay_s`` makes every reply that late; ``down`` makes every
request fail with HTTP 500; ``completion`` and ``fim_middle`` change the two suggestions.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COMPLETION = (
    "total, product = 0, 1\n"
    "    for n in numbers:\n"
    "        total += n\n"
    "        product *= n\n"
    "    return total, product"
)
CHAT_CODE = (
    "def sum_product(numbers):\n"
    "    total, product = 0, 1\n"
    "    for n in numbers:\n"
    "        total += n\n"
    "        product *= n\n"
    "    return total, product"
)
FIM_MIDDLE = "return sum(numbers), math.prod(numbers)"
CHAT_REPLY = f"Here is one way to do it:\n```python\n{CHAT_CODE}\n```\nIt loops once."


class FakeModelServer:
    """``with FakeModelServer() as fake:``; ``fake.base_url`` is ``http://127.0.0.1:PORT/v1``."""

    def __init__(self) -> None:
        self.bodies: list[dict] = []
        self.authorization: list[str] = []
        self.lock = threading.Lock()
        self.delay_s = 0.0
        self.down = False
        self.completion = COMPLETION
        self.fim_middle = FIM_MIDDLE
        self.in_flight = 0
        self.max_in_flight = 0  # the most requests answered at once
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> FakeModelServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with server.lock:
                    server.bodies.append(body)
                    server.authorization.append(self.headers.get("Authorization", ""))
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                time.sleep(server.delay_s)
                with server.lock:
                    server.in_flight -= 1
                if server.down:
                    self.send_error(500, "model crashed")
                    return
                if self.path.endswith("/completions") and "chat" not in self.path:
                    reply = {"choices": [{"index": 0, "text": server.fim_middle + "<EOT>junk"}]}
                    self._send(reply)
                    return
                system = body["messages"][0]["content"]
                content = server.completion if "<CURSOR>" in system else CHAT_REPLY
                reply = {
                    "id": "chatcmpl-fake",
                    "object": "chat.completion",
                    "model": body["model"],
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": content},
                        }
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
                }
                self._send(reply)

            def _send(self, reply: dict) -> None:
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
