"""A stand-in OpenAI-compatible server on 127.0.0.1 for the backends' tests.

``POST /v1/chat/completions`` answers ``reply`` (as given, whitespace included);
``POST /v1/completions`` echoes the prompt with per-token log-probabilities
(:func:`tests.models.servers.stand_in_server.echoed_completion`), or, with
``logprobs=False``, a plain completion without any (as servers that do not support echo).
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.models.servers.stand_in_server import echoed_completion


class CompletionServer:
    """``with CompletionServer(reply="    x") as server:``; ``server.base_url`` ends in /v1."""

    def __init__(self, reply: str = "ok", logprobs: bool = True):
        self.reply, self.logprobs, self.bodies = reply, logprobs, []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> CompletionServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.bodies.append(body)
                if self.path.endswith("/chat/completions"):
                    message = {"role": "assistant", "content": server.reply}
                    payload = {"choices": [{"index": 0, "message": message}]}
                elif server.logprobs:
                    payload = echoed_completion(body["model"], body["prompt"])
                else:
                    payload = {"choices": [{"index": 0, "text": " ."}]}
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        return Handler
