"""The managed-server lifecycle against a stand-in server: start, health, requests, shutdown,
crash while loading, no answer in time, death mid-run, and no server left after kill -9."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from seebench.errors import ModelError
from seebench.models import resolve_model
from seebench.models.client import ModelClient
from seebench.models.servers import process
from seebench.models.servers.process import ServerError, get_server, running_servers, stop_all
from tests.models.servers.conftest import pid_alive, read_pid


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        time.sleep(0.1)
    return False


def _chat(client: ModelClient, text: str) -> str | None:
    return client.chat([{"role": "user", "content": text}], max_new_tokens=8).text


@pytest.mark.parametrize("prefix", ["vllm", "sglang"])
def test_server_starts_answers_and_stops_with_its_process_group(
    stand_in: Path, model_dir: Path, prefix: str, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("STAND_IN_WORKER", "1")
    model, _ = resolve_model(f"{prefix}:{model_dir}")
    client = ModelClient(model, {"cache": False})
    assert _chat(client, "hello there") == "echo[tiny-model|t=0.0]: hello there"
    server, worker = read_pid(stand_in), read_pid(stand_in, "worker.pid")
    args = json.loads((stand_in / "args.json").read_text())
    assert args["api_key"] and "127.0.0.1" in args["argv"]
    (running,) = running_servers()
    assert running.api_key == args["api_key"]
    stop_all()
    assert _gone_within(server, 10) and _gone_within(worker, 10)
    assert not running_servers()


def test_key_is_random_port_free_and_neither_is_in_the_identity(stand_in, model_dir):
    model, _ = resolve_model(f"vllm:{model_dir}")
    first = get_server(model, {})
    port, key = first.port, first.api_key
    stop_all()
    second = get_server(model, {})
    assert second.api_key != key
    text = json.dumps(model.summary())
    assert str(second.port) not in text and str(port) not in text
    assert model.identity["server"] == "vllm"
    assert model.identity["server_version"] == "vllm 0.0.1"  # from `vllm --version`


def test_cached_replies_survive_a_new_port_and_need_no_server(stand_in, model_dir):
    model, _ = resolve_model(f"vllm:{model_dir}")
    first = ModelClient(model, {})
    assert _chat(first, "question one")
    stop_all()
    again = ModelClient(model, {})
    assert _chat(again, "question one")
    assert again.cache.hits == 1 and again.generated == 0
    assert not running_servers()  # everything was cached: no server was started


def test_server_that_crashes_while_loading_gives_one_line_with_its_last_log_lines(
    stand_in, model_dir, monkeypatch
):
    monkeypatch.setenv("STAND_IN_MODE", "crash")
    model, _ = resolve_model(f"vllm:{model_dir}")
    with pytest.raises(ServerError) as caught:
        get_server(model, {})
    message = str(caught.value)
    assert "\n" not in message
    assert f"model 'vllm:{model_dir}'" in message
    assert "while loading" in message and "exit code 3" in message
    assert "CUDA out of memory while loading the weights" in message
    assert not running_servers()


def test_server_that_does_not_answer_in_time_is_stopped_with_one_line(
    stand_in, model_dir, monkeypatch
):
    monkeypatch.setenv("STAND_IN_MODE", "hang")
    model, _ = resolve_model(f"sglang:{model_dir}")
    with pytest.raises(ServerError) as caught:
        get_server(model, {"startup_timeout_s": 1.5})
    message = str(caught.value)
    assert "\n" not in message and "within 1.5 s" in message and "startup_timeout_s" in message
    assert _gone_within(read_pid(stand_in), 10)


def test_server_that_ignores_sigterm_is_killed(stand_in, model_dir, monkeypatch):
    monkeypatch.setenv("STAND_IN_MODE", "ignore-term")
    model, _ = resolve_model(f"vllm:{model_dir}")
    get_server(model, {})
    pid = read_pid(stand_in)
    stop_all()
    assert _gone_within(pid, 10)


def test_server_that_dies_mid_run_stops_the_unit_with_one_line(stand_in, model_dir, monkeypatch):
    monkeypatch.setenv("STAND_IN_MODE", "die-after=2")
    model, _ = resolve_model(f"vllm:{model_dir}")
    client = ModelClient(model, {"concurrency": 1, "retry_base_s": 0.1})
    assert _chat(client, "one") and _chat(client, "two")
    with pytest.raises(ModelError) as caught:
        _chat(client, "three")
    message = str(caught.value)
    assert "\n" not in message and "mid-run" in message and "rerun to resume" in message
    assert "fatal error after 2 requests" in message
    # the replies that arrived are cached: a rerun (with a server that works) reuses them
    monkeypatch.setenv("STAND_IN_MODE", "ok")
    stop_all()
    rerun = ModelClient(model, {})
    assert _chat(rerun, "one") and rerun.cache.hits == 1


def test_server_options_reach_the_command_line_and_unknown_ones_are_refused(stand_in, model_dir):
    model, _ = resolve_model(f"vllm:{model_dir}")
    client = ModelClient(
        model, {"parallel": 3, "ctx_size": 512, "server_args": "--enforce-eager --seed 1"}
    )
    _chat(client, "hi")
    argv = json.loads((stand_in / "args.json").read_text())["argv"]
    assert argv[argv.index("--max-num-seqs") + 1] == "3"
    assert argv[argv.index("--max-model-len") + 1] == "512"
    assert argv[-3:] == ["--enforce-eager", "--seed", "1"]
    assert client.info()["concurrency"] == 3  # the default: the server's parallel slots


def test_concurrent_requests_keep_their_order(stand_in, model_dir, monkeypatch):
    monkeypatch.setenv("STAND_IN_DELAY_S", "0.2")
    from seebench.models.chat import Prompt

    model, _ = resolve_model(f"vllm:{model_dir}")
    client = ModelClient(model, {"concurrency": 4, "cache": False})
    prompts = [Prompt(f"s{i}", ({"role": "user", "content": f"item {i}"},)) for i in range(12)]
    replies = client.generate(prompts, max_new_tokens=4)
    assert [g.text.rsplit(": ", 1)[1] for g, _ in replies] == [f"item {i}" for i in range(12)]
    import httpx

    (server,) = running_servers()
    stats = httpx.get(
        f"http://127.0.0.1:{server.port}/stats",
        headers={"Authorization": f"Bearer {server.api_key}"},
    ).json()
    assert 1 < stats["max_in_flight"] <= 4


def test_stop_grace_is_what_the_supervisor_waits(stand_in):
    assert process.STOP_GRACE_S == 2.0  # the fixture shortens it; the default is longer


def test_threads_sharing_one_client_get_their_own_replies_and_one_server(
    stand_in, model_dir, monkeypatch
):
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("STAND_IN_DELAY_S", "0.1")
    model, _ = resolve_model(f"vllm:{model_dir}")
    client = ModelClient(model, {"parallel": 4})
    questions = [f"question {i % 10}" for i in range(30)]  # each asked three times
    with ThreadPoolExecutor(max_workers=6) as pool:
        replies = list(pool.map(lambda q: _chat(client, q), questions))
    assert [r.rsplit(": ", 1)[1] for r in replies] == questions
    assert client.cache.hits + client.cache.misses == 30
    assert len(running_servers()) == 1
    again = ModelClient(model, {"parallel": 4})
    assert [_chat(again, q) for q in questions[:10]] == replies[:10]
    assert again.cache.hits == 10


def test_a_port_taken_before_the_server_binds_it_is_retried(stand_in, model_dir, monkeypatch):
    import socket

    from seebench.models.servers import process as process_module

    blocker = socket.socket()
    blocker.bind(("127.0.0.1", 0))
    blocker.listen()
    taken = blocker.getsockname()[1]
    ports = iter([taken])
    real_free_port = process_module.free_port
    monkeypatch.setattr(process_module, "free_port", lambda: next(ports, None) or real_free_port())
    try:
        model, _ = resolve_model(f"vllm:{model_dir}")
        server = get_server(model, {})
        assert server.port != taken and server.alive()
    finally:
        blocker.close()


def test_release_stops_one_server_and_the_next_request_starts_a_new_one(stand_in, model_dir):
    model, _ = resolve_model(f"vllm:{model_dir}")
    first = get_server(model, {})
    first_pid = read_pid(stand_in)
    other = get_server(model, {"parallel": 2})  # other options: another server
    process.release(first)
    assert not first.alive() and not pid_alive(first_pid) and other.alive()
    assert running_servers() == [other]
    second = get_server(model, {})
    assert second is not first and second.alive() and read_pid(stand_in) != first_pid
    process.release(first)  # releasing twice does nothing
    assert len(running_servers()) == 2


def test_llama_server_gets_its_slots_context_threads_and_key(stand_in, tmp_path):
    """``llamaserver:`` runs llama.cpp's ``llama-server``: the context per slot times the
    slots, the threads, the key in ``LLAMA_API_KEY`` (never on the command line)."""
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 32)
    model, _ = resolve_model(f"llamaserver:{gguf}")
    assert model.identity["server_version"] == "llama-server 4242 (abc1234)"
    client = ModelClient(model, {"cache": False, "parallel": 2, "ctx_size": 1024, "n_threads": 3})
    assert client.max_in_flight() == 2
    assert _chat(client, "hi") == "echo[tiny|t=0.0]: hi"
    args = json.loads((stand_in / "args.json").read_text())
    argv = args["argv"]
    assert argv[argv.index("--parallel") + 1] == "2"
    assert argv[argv.index("--ctx-size") + 1] == "2048"
    assert argv[argv.index("--threads") + 1] == "3"
    assert argv[argv.index("--host") + 1] == "127.0.0.1"
    assert args["api_key"] and args["api_key"] not in argv
    server = read_pid(stand_in)
    stop_all()
    assert _gone_within(server, 10)
    default = ModelClient(model, {"cache": False})
    assert default.max_in_flight() == 4  # the server's default slots
