"""``llamacpp:``: the command line seebench builds, and the real server where it is installed."""

from __future__ import annotations

import importlib.util
import json
import time

import pytest

from seebench.models import resolve_model
from seebench.models.client import ModelClient
from seebench.models.servers.process import running_servers, stop_all
from tests.models.servers.conftest import pid_alive


def test_llamacpp_command_line_and_key_in_the_environment(fake_llama_cpp, tmp_path):
    gguf = tmp_path / "tiny.Q4.gguf"
    gguf.write_bytes(b"GGUF tiny")
    model, _ = resolve_model(f"llamacpp:{gguf}")
    assert model.identity["server_version"] == "llama-cpp-python 0.0.2"
    client = ModelClient(model, {"ctx_size": 1024, "n_threads": 3})
    reply = client.chat([{"role": "user", "content": "hi"}], max_new_tokens=4)
    assert reply.text == "echo[tiny.Q4|t=0.0]: hi"
    args = json.loads((fake_llama_cpp / "args.json").read_text())
    argv = args["argv"]
    assert argv[argv.index("--model") + 1] == str(gguf)
    assert argv[argv.index("--n_ctx") + 1] == "1024"
    assert argv[argv.index("--n_threads") + 1] == "3"
    assert args["api_key"] and args["api_key"] not in argv  # from API_KEY, not the argv
    assert client.info()["concurrency"] == 1  # one slot: the server answers one at a time


needs_llama_cpp = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None or importlib.util.find_spec("uvicorn") is None,
    reason="llama-cpp-python[server] is not installed (pip install 'seebench[llamacpp]')",
)


@needs_llama_cpp
def test_real_llamacpp_server_answers_smollm2_and_stops(tmp_path):
    from seebench.errors import ModelError

    try:
        model, _ = resolve_model("llamacpp:smollm2")
    except ModelError as exc:
        pytest.skip(str(exc))
    client = ModelClient(model, {"cache": False, "ctx_size": 1024})
    reply = client.chat(
        [{"role": "user", "content": "Reply with one word: yes or no. Is water wet?"}],
        max_new_tokens=4,
    )
    assert reply.error is None and reply.text
    (server,) = running_servers()
    pid = int(server.log_path.with_suffix(".pid").read_text())
    assert pid_alive(pid)
    stop_all()
    deadline = time.monotonic() + 15
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not pid_alive(pid)
