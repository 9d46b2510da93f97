"""The study app on a managed model server (``llamacpp:`` through the stand-in server that the
servers tests use): one server for suggestions and chat, started once and kept, restarted after
it dies, and stopped when the app shuts down."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from seebench_study.app import StudyApp
from seebench_study.definition import load_study
from seebench_study.store import StudyStore, read_events

from seebench.models.servers.process import running_servers
from seebench_study_tests.conftest import enter_task, write_test_study
from tests.models.servers import conftest as servers
from tests.models.servers.conftest import pid_alive, read_pid

#: the servers tests' fixtures: a ``llama_cpp.server`` that runs the stand-in server
stand_in = servers.stand_in
fake_llama_cpp = servers.fake_llama_cpp


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not pid_alive(pid):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def served_study(fake_llama_cpp, tmp_path: Path) -> Path:
    """The test study with both conditions on ``llamacpp:<a tiny GGUF>`` (the stand-in)."""
    gguf = tmp_path / "tiny-coder.gguf"
    gguf.write_bytes(b"GGUF tiny coder")
    return write_test_study(tmp_path, "", served=f"llamacpp:{gguf}")


def _sessions(client: httpx.Client) -> dict[str, dict]:
    """One session per condition kind (the assignment is balanced: two sessions, two kinds),
    each at its first task: ``{"session", "tab"}`` to send with each request."""
    kinds = {}
    for participant in ("P1", "P2"):
        row = enter_task(client, participant, f"tab-{participant}")
        kinds[row["kind"]] = {"session": row["session"], "tab": row["tab"]}
    assert set(kinds) == {"autocomplete", "chat"}
    return kinds


SUGGEST = {"prefix": "def f():\n    ", "suffix": "return 1"}


def test_suggestions_and_chat_share_one_managed_server_stopped_at_shutdown(
    served_study, serve, rhe_tasks, fake_llama_cpp
):
    study = serve(served_study)
    with httpx.Client(base_url=study.base_url, timeout=30) as client:
        sessions = _sessions(client)
        assert not running_servers()  # --no-warm: the first request starts it
        first = client.post("/api/suggest", json={**sessions["autocomplete"], **SUGGEST})
        assert first.status_code == 200, first.text
        # the stand-in echoes the request: the cursor's code came back through the server
        assert first.json()["suggestion"] == "return 1"
        server_pid = read_pid(fake_llama_cpp)
        chat = client.post(
            "/api/chat",
            json={**sessions["chat"], "message": "hi", "message_id": "m-1"},
        )
        assert chat.status_code == 200, chat.text
        assert chat.json()["text"].startswith("echo[tiny-coder|")
        again = client.post("/api/suggest", json={**sessions["autocomplete"], **SUGGEST})
        assert again.status_code == 200
    assert read_pid(fake_llama_cpp) == server_pid  # one start for the app's life
    (server,) = running_servers()
    assert study.state.assistants["ac"].ensure_server() is server
    assert study.state.assistants["chat"].ensure_server() is server
    study.stop()
    assert _gone_within(server_pid, 10)
    assert not running_servers()


def test_warm_up_starts_the_server_before_any_participant(
    served_study, rhe_tasks, fake_llama_cpp, tmp_path
):
    state = StudyApp(load_study(str(served_study)), StudyStore(tmp_path / "w.sqlite"), "t")
    try:
        state.assistants["ac"].warm_up()
        (server,) = running_servers()
        pid = read_pid(fake_llama_cpp)
        assert pid_alive(pid)
        assert state.assistants["chat"].probe() is None  # the chat condition uses it too
        assert read_pid(fake_llama_cpp) == pid
    finally:
        state.close_models()
        state.store.close()
    assert _gone_within(pid, 10)
    assert not running_servers()


def test_a_server_that_dies_is_started_again_on_the_next_request(
    served_study, serve, rhe_tasks, fake_llama_cpp, monkeypatch
):
    monkeypatch.setenv("STAND_IN_MODE", "die-after=1")
    study = serve(served_study)
    with httpx.Client(base_url=study.base_url, timeout=30) as client:
        body = {**_sessions(client)["autocomplete"], **SUGGEST}
        assert client.post("/api/suggest", json=body).status_code == 200
        first_pid = read_pid(fake_llama_cpp)
        dying = client.post("/api/suggest", json=body)  # the request that kills it
        assert dying.status_code == 503
        assert _gone_within(first_pid, 10)
        revived = client.post("/api/suggest", json=body)
        assert revived.status_code == 200, revived.text
        assert revived.json()["suggestion"] == "return 1"
    assert read_pid(fake_llama_cpp) != first_pid
    errors = [e for e in read_events(study.db) if e["type"] == "model_error"]
    assert len(errors) == 1 and "exited" in errors[0]["data"]["error"]
    study.stop()
    assert not running_servers()


def test_a_managed_server_needs_no_key_variable(served_study, rhe_tasks, monkeypatch):
    from seebench_study.cli import model_warnings

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert model_warnings(load_study(str(served_study))) == []  # it gets a random key
