"""A JSON-over-HTTP stand-in on 127.0.0.1 for tests: every ``POST`` body is answered with what a
subclass's :meth:`JsonPostServer.reply` returns. Use it as a context manager; ``base_url`` ends
in ``/v1`` like an OpenAI-compatible server's."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class JsonPostServer:
    """Serves :meth:`reply` for every POST until the ``with`` block ends."""

    def __init__(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                data = json.dumps(server.reply(body)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """The JSON answer to one request body."""
        raise NotImplementedError

    def __enter__(self) -> JsonPostServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
