"""A stand-in for ``vllm serve``, SGLang's ``launch_server``, llama-cpp-python's server and
llama.cpp's ``llama-server``.

It speaks the part of the protocol seebench uses (``GET /v1/models``, ``POST
/v1/chat/completions`` with a Bearer API key, ``--version``) and takes each server's
command line. Its behaviour is set by environment variables:

- ``STAND_IN_DIR``: a folder where it writes ``server.pid`` (and ``worker.pid`` when it
  starts a child process with ``STAND_IN_WORKER=1``) and ``args.json`` (its argv and the
  API key it was given);
- ``STAND_IN_MODE``: ``ok`` (default); ``crash`` (prints a few log lines while "loading",
  then exits with code 3); ``hang`` (never listens); ``ignore-term`` (ignores SIGTERM);
  ``die-after=N`` (exits with code 9 after answering N requests);
- ``STAND_IN_LOAD_S``: seconds of "loading" before it listens (default 0.2);
- ``STAND_IN_DELAY_S``: seconds each chat request is held (default 0.05), so that concurrent
  requests overlap; ``GET /stats`` reports the most requests it held at once.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: the word an echoed completion makes likely (the loglik tests' "model" prefers it)
FAVOURED = "bug"


def echoed_completion(model: str, prompt: str) -> dict:
    """A ``/v1/completions`` reply with ``echo`` and ``logprobs``: the prompt split into
    tokens (a word with the whitespace before it), each with a log-probability that depends
    only on the token, plus one generated token."""
    import re

    tokens = re.findall(r"\s*\S+|\s+", prompt) + [" ."]
    values, offsets, position = [], [], 0
    for token in tokens:
        offsets.append(position)
        position += len(token)
        word = token.strip()
        values.append(-0.1 * len(word) - (0.0 if word == FAVOURED else 1.0))
    values[0] = None  # the first token has no context, as real servers report
    top = [None] + [{t: v} for t, v in zip(tokens[1:], values[1:], strict=True)]
    return {
        "object": "text_completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "text": prompt + " .",
                "logprobs": {
                    "tokens": tokens,
                    "token_logprobs": values,
                    "text_offset": offsets,
                    "top_logprobs": top,
                },
            }
        ],
    }


def _arg(argv: list[str], *names: str) -> str | None:
    for name in names:
        if name in argv:
            return argv[argv.index(name) + 1]
    return None


def main(argv: list[str]) -> int:
    if "--version" in argv:
        print("version: 4242 (abc1234)")  # llama-server's way
        print("stand-in 0.0.1")  # vLLM's: the last word of the last line
        return 0
    folder = os.environ.get("STAND_IN_DIR", ".")
    mode = os.environ.get("STAND_IN_MODE", "ok")
    port = int(_arg(argv, "--port") or 0)
    name = _arg(argv, "--served-model-name", "--model_alias", "--alias") or "stand-in"
    api_key = (
        _arg(argv, "--api-key")
        or os.environ.get("VLLM_API_KEY")
        or os.environ.get("API_KEY")
        or os.environ.get("LLAMA_API_KEY")
        or ""
    )
    with open(os.path.join(folder, "server.pid"), "w") as handle:
        handle.write(str(os.getpid()))
    with open(os.path.join(folder, "args.json"), "w") as handle:
        json.dump({"argv": argv, "api_key": api_key}, handle)
    if os.environ.get("STAND_IN_WORKER") == "1":
        worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        with open(os.path.join(folder, "worker.pid"), "w") as handle:
            handle.write(str(worker.pid))
    if mode == "ignore-term":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print(f"stand-in: loading {name}", flush=True)
    time.sleep(float(os.environ.get("STAND_IN_LOAD_S", "0.2")))
    if mode == "crash":
        print("stand-in: reading weights", flush=True)
        print("stand-in: CUDA out of memory while loading the weights", flush=True)
        return 3
    if mode == "hang":
        time.sleep(3600)
        return 0
    die_after = int(mode.split("=")[1]) if mode.startswith("die-after=") else None
    delay = float(os.environ.get("STAND_IN_DELAY_S", "0.05"))
    state = {"requests": 0, "in_flight": 0, "max_in_flight": 0}
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def _send(self, status: int, payload: dict) -> None:
            body = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _authorised(self) -> bool:
            if api_key and self.headers.get("Authorization") != f"Bearer {api_key}":
                self._send(401, {"error": "invalid api key"})
                return False
            return True

        def do_GET(self) -> None:
            if not self._authorised():
                return
            if self.path == "/v1/models":
                return self._send(200, {"object": "list", "data": [{"id": name}]})
            if self.path == "/stats":
                with lock:
                    return self._send(200, dict(state))
            self._send(404, {"error": "not found"})

        def do_POST(self) -> None:
            if not self._authorised():
                return
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with lock:
                state["requests"] += 1
                state["in_flight"] += 1
                state["max_in_flight"] = max(state["max_in_flight"], state["in_flight"])
                count = state["requests"]
            if die_after is not None and count > die_after:
                print(f"stand-in: fatal error after {die_after} requests", flush=True)
                os._exit(9)
            time.sleep(delay)
            with lock:
                state["in_flight"] -= 1
            if self.path.endswith("/completions") and "messages" not in body:
                return self._send(200, echoed_completion(body["model"], body["prompt"]))
            content = body["messages"][-1]["content"]
            reply = f"echo[{body['model']}|t={body.get('temperature')}]: {content[-60:]}"
            self._send(
                200,
                {
                    "object": "chat.completion",
                    "model": body["model"],
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": reply}}],
                    "usage": {"prompt_tokens": len(content.split()), "completion_tokens": 4},
                },
            )

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print(f"stand-in: listening on 127.0.0.1:{port}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    # vllm's CLI is "vllm serve DIR ..."; SGLang's and llama-cpp-python's take flags only
    sys.exit(main([a for a in sys.argv[1:] if a != "serve"]))
