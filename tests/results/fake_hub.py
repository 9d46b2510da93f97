"""A local stand-in of the Hugging Face Hub API on 127.0.0.1: just what ``results push`` uses
(create a repository, pre-upload check, commit), keeping pushed files in memory."""

from __future__ import annotations

import base64
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class FakeHub:
    """``with FakeHub(token) as hub:`` then ``HfApi(endpoint=hub.url)``; ``hub.repos`` maps
    ``type/org/name`` to ``{path: bytes}``; requests without ``Bearer token`` get HTTP 401."""

    def __init__(self, token: str):
        self.token = token
        self.repos: dict[str, dict[str, bytes]] = {}
        self.created: list[dict] = []
        self.commits: list[dict] = []
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> FakeHub:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _handler(self):
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def _send(self, status: int, body: dict) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.headers.get("Authorization") != f"Bearer {hub.token}":
                    return self._send(401, {"error": "Invalid credentials"})
                parts = self.path.split("?")[0].strip("/").split("/")
                if parts == ["api", "repos", "create"]:
                    body = json.loads(raw)
                    key = f"{body['type']}/{body['organization']}/{body['name']}"
                    hub.created.append(body)
                    prefix = f"{body['type']}s/{body['organization']}/{body['name']}"
                    if key in hub.repos:  # the Hub names the existing repository
                        return self._send(
                            409,
                            {
                                "error": "You already created this repo",
                                "url": f"{hub.url}/{prefix}",
                            },
                        )
                    hub.repos[key] = {}
                    return self._send(200, {"url": f"{hub.url}/{prefix}"})
                # /api/datasets/ORG/NAME/(preupload|commit)/REVISION
                if len(parts) == 6 and parts[0] == "api" and parts[4] in ("preupload", "commit"):
                    key = f"{parts[1].rstrip('s')}/{parts[2]}/{parts[3]}"
                    if key not in hub.repos:
                        return self._send(404, {"error": "Repository not found"})
                    if parts[4] == "preupload":
                        files = json.loads(raw)["files"]
                        return self._send(
                            200,
                            {
                                "files": [
                                    {
                                        "path": f["path"],
                                        "uploadMode": "regular",
                                        "shouldIgnore": False,
                                    }
                                    for f in files
                                ]
                            },
                        )
                    lines = [json.loads(line) for line in raw.splitlines() if line.strip()]
                    header = next(item["value"] for item in lines if item["key"] == "header")
                    for item in lines:
                        if item["key"] == "file":
                            value = item["value"]
                            hub.repos[key][value["path"]] = base64.b64decode(value["content"])
                    hub.commits.append({"repo": key, **header})
                    oid = f"{len(hub.commits):040x}"
                    return self._send(
                        200,
                        {
                            "commitUrl": f"{hub.url}/{parts[1]}/{parts[2]}/{parts[3]}/commit/{oid}",
                            "commitOid": oid,
                        },
                    )
                return self._send(404, {"error": f"no route {self.path}"})

        return Handler
