"""A code task through the prompting method: prompt, reply, parsing, sandbox (plumbing).

The model is a small OpenAI-compatible server on 127.0.0.1 whose reply depends on the
function named in the prompt: the reference solution in a fence, a wrong one, or a reply cut
off inside its code block.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from seebench.data.dataset import load_task_data
from seebench.tasks.index import build_task_index
from tests.suites.codegen.conftest import evaluate, read_unit

pytest.importorskip("httpx", reason="the openai backend needs the api extra")


class CodeServer:
    """Answers chat completions with ``replies[entry_point]`` for the function in the prompt."""

    def __init__(self, replies: dict[str, str]):
        self.replies = replies
        self.prompts: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                prompt = body["messages"][-1]["content"]
                server.prompts.append(prompt)
                name = next(n for n in server.replies if re.search(rf"def {n}\(", prompt))
                reply = {
                    "choices": [
                        {"message": {"role": "assistant", "content": server.replies[name]}}
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10},
                }
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> CodeServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_prompting_a_model_for_completions(code_env, sandbox_ok, monkeypatch):
    registry, _, out = code_env
    task = build_task_index(registry).get("humaneval")
    first, second, third = load_task_data(task, registry, limit=3).test
    replies = {
        first.target["entry_point"]: f"Here you go:\n```python\n{first.target['reference']}```",
        second.target["entry_point"]: "```python\n    return []\n```",
        third.target["entry_point"]: "```python\n    return number -",  # cut off
    }
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with CodeServer(replies) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        [outcome] = evaluate(code_env, "openai:coder", "humaneval", method="zero-shot", limit=3)
    assert outcome.status == "ok", outcome.reason
    assert outcome.metrics == {"pass_rate": pytest.approx(1 / 3)}
    result, samples = read_unit(out, "openai-coder", "zero-shot", "humaneval")
    assert result["invalid"] == 1
    assert [s["score"] for s in samples] == [1.0, 0.0, 0.0]
    assert samples[2]["error"].startswith("unclosed code block")
    prompt = next(p for p in server.prompts if f"def {first.target['entry_point']}(" in p)
    assert "Answer format: Reply with the Python code that completes the function" in prompt
    assert "Function to complete: from typing import List" in prompt and prompt.endswith(
        "Completion:"
    )
