"""The request loop: one asyncio loop per process for served models. Requests to one server
share ``concurrency`` slots across units, cached replies are never sent, a unit abandoned at
its time limit leaves nothing in flight, and units run side by side give the results of
units run one at a time."""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("aiohttp", reason="the openai backend needs the api extra")

from seebench.models import ModelRef  # noqa: E402
from seebench.models.chat import Prompt  # noqa: E402
from seebench.models.client import ModelClient  # noqa: E402
from tests.methods.prompting.conftest import (  # noqa: E402
    evaluate,
    make_prompt_task,
    read_unit,
)


@pytest.fixture
def task_env(tmp_path, monkeypatch):
    """(registry, task directory, output directory), as the prompting tests' fixture."""
    from seebench.plugin_manager import build_registry, create_plugin_manager
    from tests.plugins import tmp_tasks_plugin

    tasks = tmp_path / "tasks"
    tasks.mkdir()
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    registry = build_registry(
        create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
    )
    return registry, tasks, tmp_path / "out"


MODEL = ModelRef(spec="openai:m", id="m", kind="openai", identity={"model": "m"})


class GatherServer:
    """A chat-completions server on 127.0.0.1 that holds each request until ``gather``
    requests are in flight at once (or ``wait_s`` passed), then answers ``bug``; it counts
    requests and the most in flight at once."""

    def __init__(self, gather: int, wait_s: float = 15.0) -> None:
        self.gather, self.wait_s = gather, wait_s
        self.requests = self.in_flight = self.max_in_flight = 0
        self.changed = threading.Condition()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> GatherServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _hold(self) -> None:
        with self.changed:
            self.requests += 1
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
            self.changed.notify_all()
            self.changed.wait_for(lambda: self.max_in_flight >= self.gather, self.wait_s)
            self.in_flight -= 1

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                server._hold()
                body = json.dumps({"choices": [{"message": {"content": "bug"}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler


def _tasks(task_env, count: int, items: int) -> str:
    names = [f"t{i}" for i in range(count)]
    for name in names:
        make_prompt_task(task_env[1], name, "binary", [f"{name} item {j}" for j in range(items)])
    return ",".join(names)


def test_units_side_by_side_keep_concurrency_requests_in_flight_across_units(task_env):
    # three units of two items each: only units that overlap can have six in flight
    tasks = _tasks(task_env, 3, 2)
    with GatherServer(gather=6) as server:
        options = {"base_url": server.base_url, "concurrency": 6, "cache": False}
        outcomes = evaluate(task_env, "openai:m", tasks, method_options=options)
    assert [o.status for o in outcomes] == ["ok"] * 3
    assert server.max_in_flight == 6 and server.requests == 6


def test_concurrency_is_a_limit_shared_by_the_units_of_the_process(task_env):
    tasks = _tasks(task_env, 3, 3)
    with GatherServer(gather=99, wait_s=0.3) as server:
        options = {"base_url": server.base_url, "concurrency": 2, "cache": False}
        evaluate(task_env, "openai:m", tasks, method_options=options)
    assert server.requests == 9 and server.max_in_flight == 2


def test_cached_replies_are_not_sent():
    prompts = [Prompt(f"s{i}", ({"role": "user", "content": f"item {i}"},)) for i in range(5)]
    with GatherServer(gather=1) as server:
        client = ModelClient(MODEL, {"base_url": server.base_url, "concurrency": 4})
        first = client.generate(prompts, max_new_tokens=4)
        sent = server.requests
        again = ModelClient(MODEL, {"base_url": server.base_url, "concurrency": 4})
        second = again.generate(
            prompts + [Prompt("new", ({"role": "user", "content": "x"},))], max_new_tokens=4
        )
    assert sent == 5 and server.requests == 6  # only the new prompt was sent
    assert [cached for _, cached in first] == [False] * 5
    assert [cached for _, cached in second] == [True] * 5 + [False]
    assert [g.text for g, _ in second] == ["bug"] * 6


@pytest.fixture
def silent_server():
    """Takes connections and never answers."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=64)
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    finally:
        listener.close()


def test_a_unit_abandoned_at_its_time_limit_leaves_no_request_in_flight(task_env, silent_server):
    from seebench.models.backends.request_loop import request_loop
    from seebench.runner.budget import Budget

    tasks = _tasks(task_env, 2, 3)
    options = {"base_url": silent_server, "concurrency": 3, "cache": False, "max_retries": 0}
    started = time.monotonic()
    outcomes = evaluate(
        task_env, "openai:m", tasks, method_options=options, budget=Budget(unit_time_limit=1.0)
    )
    assert [o.status for o in outcomes] == ["failed", "failed"]
    assert all("unit time limit of 1 s" in o.reason for o in outcomes)
    assert time.monotonic() - started < 30  # the client's own timeout is 60 s
    pool = request_loop().pool(("openai", silent_server), 3)
    deadline = time.monotonic() + 10
    while pool.in_flight and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pool.in_flight == 0 and pool.peak == 3


def test_units_side_by_side_give_the_results_of_units_one_at_a_time(task_env, monkeypatch):
    import dataclasses

    from seebench.executors import plan

    tasks = _tasks(task_env, 3, 4)
    out = task_env[2]
    with GatherServer(gather=1) as server:
        options = {"base_url": server.base_url, "concurrency": 4, "cache": False}
        evaluate(task_env, "openai:m", tasks, method_options=options, output=out / "together")
        declared = plan.unit_resources  # one at a time: the units no longer wait on a server
        monkeypatch.setattr(
            plan,
            "unit_resources",
            lambda *a: dataclasses.replace(declared(*a), waits_on_server=False),
        )
        evaluate(task_env, "openai:m", tasks, method_options=options, output=out / "alone")
    for name in tasks.split(","):
        together = read_unit(out / "together", "openai-m", "zero-shot", name)
        alone = read_unit(out / "alone", "openai-m", "zero-shot", name)
        assert together[1] == alone[1]
        for key in ("metrics", "n", "invalid", "samples_sha256"):
            assert together[0][key] == alone[0][key], key
        assert together[0]["run"]["config_hash"] == alone[0]["run"]["config_hash"]


def test_proxy_variables_apply_once_per_server_and_no_proxy_exempts(monkeypatch):
    from seebench.models.backends.request_loop import env_proxy

    for name in ("http_proxy", "https_proxy", "no_proxy", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    assert env_proxy("http://10.1.2.3:8000/v1") is None
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "internal.example")
    assert env_proxy("https://api.example/v1") == "http://proxy.example:3128"
    assert env_proxy("http://api.example/v1") is None  # no HTTP_PROXY
    assert env_proxy("https://internal.example/v1") is None


def test_requests_going_out_let_the_next_unit_prepare(monkeypatch):
    """Here nothing is written to a server, so the turn passes on after ``SEND_WAIT_S``."""
    import sys

    from seebench import turns
    from seebench.models.backends import request_loop as loop_module
    from seebench.models.backends.request_loop import SWITCH_INTERVAL_S, request_loop

    monkeypatch.setattr(turns, "_TURN", turns._Turn())
    monkeypatch.setattr(loop_module, "SEND_WAIT_S", 0.1)
    order: list[str] = []

    def prepare() -> None:
        with turns.preparing(5.0):
            order.append("next unit prepared")

    async def reply(index: int) -> int:
        return index

    with turns.kept_until_sending():
        with turns.preparing(1.0):
            pass
        other = threading.Thread(target=prepare)
        other.start()
        other.join(0.2)
        assert other.is_alive()  # the turn is kept until this unit sends
        assert list(request_loop().run(1, reply)) == [(0, 0)]
        other.join(5)
        assert order == ["next unit prepared"]  # before this unit's block ended
    assert sys.getswitchinterval() <= SWITCH_INTERVAL_S


def test_a_kept_turn_passes_on_once_the_first_request_is_written(monkeypatch):
    from seebench import turns
    from seebench.models.backends import request_loop as loop_module

    monkeypatch.setattr(turns, "_TURN", turns._Turn())
    monkeypatch.setattr(loop_module, "SEND_WAIT_S", 30.0)  # only a written request passes it
    prepared_at: list[float] = []

    def prepare() -> None:
        with turns.preparing(30.0):
            prepared_at.append(time.monotonic())

    with GatherServer(gather=3, wait_s=2.0) as server:  # 2 requests: answered after 2 s
        client = ModelClient(MODEL, {"base_url": server.base_url, "concurrency": 2, "cache": False})
        prompts = [Prompt(f"p{i}", ({"role": "user", "content": f"q{i}"},)) for i in range(2)]
        with turns.kept_until_sending():
            with turns.preparing(1.0):
                pass
            other = threading.Thread(target=prepare)
            other.start()
            replies = client.generate(prompts, max_new_tokens=4)
            answered_at = time.monotonic()
            other.join(10)
    assert len(replies) == 2
    assert prepared_at and prepared_at[0] < answered_at  # while the requests were in flight
