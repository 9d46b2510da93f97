"""The study API without a browser: assignment, event validation, model and code routes, admin."""

from __future__ import annotations

import pytest
from seebench_study.app import StudyApp, create_app
from seebench_study.definition import load_study
from seebench_study.store import StudyStore, read_events

from seebench_study_tests.conftest import TEST_KEY, enter_task, write_test_study
from seebench_study_tests.fake_model import CHAT_CODE, COMPLETION


@pytest.fixture
def client(rhe_tasks, fake_model, tmp_path, monkeypatch):
    from starlette.testclient import TestClient

    monkeypatch.setenv("STUDY_TEST_KEY", TEST_KEY)
    study = load_study(str(write_test_study(tmp_path, fake_model.base_url)))
    state = StudyApp(study, StudyStore(tmp_path / "db.sqlite"), "tok", seed=3)
    with TestClient(create_app(state)) as test_client:
        test_client.state = state
        yield test_client


def _sessions(client, n: int) -> list[dict]:
    """``n`` sessions at their first task, each driven by its own tab."""
    return [enter_task(client, f"p{i}", f"tab-{i}") for i in range(n)]


def test_assignment_is_balanced_and_the_browser_gets_no_tests_or_keys(client) -> None:
    views = _sessions(client, 4)
    assert sorted(v["kind"] for v in views) == ["autocomplete", "autocomplete", "chat", "chat"]
    text = str(views)
    assert "assert " not in text and TEST_KEY not in text and "base_url" not in text
    assert [t["name"] for t in views[0]["tasks"]] == ["sum_product", "even_odd_count"]
    again = client.get(f"/api/session/{views[0]['session']}").json()
    assert again["condition"] == views[0]["condition"]
    assert client.get("/api/session/s-nope").status_code == 404


def test_events_are_validated_one_by_one_and_acknowledged_after_storing(client) -> None:
    (view,) = _sessions(client, 1)
    session = view["session"]
    good = {
        "schema": 1,
        "session": session,
        "seq": 0,
        "type": "paste",
        "task": None,
        "client_time": 5,
        "data": {"length": 3, "blocked": True, "source": "external"},
    }
    bad = {**good, "seq": 1, "data": {"length": 3, "blocked": "yes", "source": "external"}}
    other = {**good, "seq": 2, "session": "s-00000000-0000-0000-0000-000000000000"}
    reply = client.post("/api/events", json={"session": session, "events": [good, bad, other]})
    body = reply.json()
    assert body["acked"] == [0] and body["stored"] == 1
    assert [r["seq"] for r in body["rejected"]] == [1, 2]
    assert "data.blocked" in body["rejected"][0]["error"]
    assert "does not match" in body["rejected"][1]["error"]
    assert (
        client.post("/api/events", json={"session": session, "events": [good]}).json()["stored"]
        == 0
    )
    stored = [e for e in read_events(client.state.store.path) if e["tab"] != "server"]
    assert [e["type"] for e in stored] == ["paste"]
    assert client.post("/api/events", content=b"{not json").status_code in (400, 404)


def test_model_routes_follow_the_condition(client, fake_model) -> None:
    both = {v["kind"]: v for v in _sessions(client, 2)}
    views = {kind: v["session"] for kind, v in both.items()}
    tabs = {kind: v["tab"] for kind, v in both.items()}
    reply = client.post(
        "/api/suggest",
        json={
            "session": views["autocomplete"],
            "tab": tabs["autocomplete"],
            "prefix": "def f(numbers):\n    ",
            "suffix": "",
        },
    )
    body = reply.json()
    assert body["suggestion"] == COMPLETION and 10 <= body["max_tokens"] <= 120
    assert fake_model.bodies[-1]["max_tokens"] == body["max_tokens"]
    assert "<CURSOR>" in fake_model.bodies[-1]["messages"][-1]["content"]
    chat = client.post(
        "/api/chat",
        json={"session": views["chat"], "tab": tabs["chat"], "message": "hi", "message_id": "m-1"},
    )
    assert CHAT_CODE in chat.json()["text"] and fake_model.bodies[-1]["max_tokens"] == 512
    assert (
        client.post(
            "/api/chat", json={"session": views["autocomplete"], "messages": []}
        ).status_code
        == 403
    )
    assert client.post("/api/suggest", json={"session": views["chat"]}).status_code == 403
    bad = client.post(
        "/api/chat", json={"session": views["chat"], "tab": tabs["chat"], "message": ""}
    )
    assert bad.status_code == 400
    assert fake_model.bodies[-1]["messages"][1:] == [{"role": "user", "content": "hi"}]


def test_run_and_submit_in_the_sandbox(client, sandbox_ready) -> None:
    (view,) = _sessions(client, 1)

    def execute(code: str, mode: str, task: str = "sum_product") -> dict:
        return client.post(
            "/api/execute",
            json={
                "session": view["session"],
                "tab": view["tab"],
                "task": task,
                "code": code,
                "mode": mode,
            },
        ).json()

    assert execute("print('hello')", "run") == {"passed": True, "output": "hello"}
    failed = execute("def sum_product(numbers):\n    return 0, 0\n", "submit")
    assert not failed["passed"] and "AssertionError" in failed["output"]
    crashed = execute("1/0", "run")
    assert not crashed["passed"] and "ZeroDivisionError" in crashed["output"]
    assert 'File "main.py", line 1' in crashed["output"] and "zygote" not in crashed["output"]
    passed = execute(CHAT_CODE, "submit")  # a pass moves the participant on
    assert passed["passed"] and passed["output"] == "All tests passed."
    assert passed["progress"]["task"] == "even_odd_count"
    assert execute("print(1)", "run", "sum_product")["error"].startswith("task 'sum_product'")
    assert (
        client.post(
            "/api/execute",
            json={"session": view["session"], "task": "t_test", "code": "", "mode": "run"},
        ).status_code
        == 400
    )


def test_admin_needs_the_token(client) -> None:
    _sessions(client, 2)
    assert client.get("/admin").status_code == 403
    assert client.get("/admin?token=wrong").status_code == 403
    page = client.get("/admin?token=tok")
    assert page.status_code == 200 and "<td>ac</td>" in page.text
    assert (
        client.get("/admin/events.jsonl", headers={"Authorization": "Bearer tok"}).status_code
        == 200
    )
