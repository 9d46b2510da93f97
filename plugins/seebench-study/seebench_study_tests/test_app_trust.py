"""What the study server trusts: its own verdicts, bounded and well-formed bodies, survey
answers that fit their items, and responses without secrets; and what it does when a model
fails or is slow (a neutral message, an error event, concurrent calls)."""

from __future__ import annotations

import dataclasses
import threading

import pytest
from seebench_study.app import MAX_BODY_BYTES, UNAVAILABLE, StudyApp, create_app
from seebench_study.definition import load_study
from seebench_study.store import StudyStore, read_events

from seebench_study_tests.conftest import TEST_KEY, write_test_study
from seebench_study_tests.fake_model import CHAT_CODE, FIM_MIDDLE


def _client(study_path, tmp_path):
    from starlette.testclient import TestClient

    state = StudyApp(load_study(str(study_path)), StudyStore(tmp_path / "db.sqlite"), "tok", seed=3)
    return TestClient(create_app(state)), state


@pytest.fixture
def make_client(rhe_tasks, fake_model, tmp_path, monkeypatch):
    monkeypatch.setenv("STUDY_TEST_KEY", TEST_KEY)
    opened = []

    def make(conditions=("ac", "chat")):
        client, state = _client(
            write_test_study(tmp_path, fake_model.base_url, conditions=conditions), tmp_path
        )
        client.__enter__()
        client.state = state
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def _event(session: str, seq: int, type_: str, data: dict, task=None, tab="tab-1") -> dict:
    return {
        "schema": 1,
        "session": session,
        "tab": tab,
        "seq": seq,
        "type": type_,
        "task": task,
        "client_time": 1,
        "data": data,
    }


def _post_events(client, session: str, events: list[dict]) -> dict:
    return client.post("/api/events", json={"session": session, "events": events}).json()


def test_a_forged_submit_is_not_counted_and_a_real_one_is(make_client, sandbox_ready) -> None:
    client = make_client(("none",))
    session = client.post("/api/session", json={}).json()["session"]
    forged = [
        _event(session, 0, "submit", {"code": "pass", "passed": True, "output": ""}, "sum_product"),
        _event(session, 1, "task_finished", {"outcome": "passed"}, "sum_product"),
    ]
    reply = _post_events(client, session, forged)
    assert reply["acked"] == [] and [r["seq"] for r in reply["rejected"]] == [0, 1]
    assert "recorded by the server" in reply["rejected"][0]["error"]
    assert "no passing Submit" in reply["rejected"][1]["error"]
    wrong = {"session": session, "task": "sum_product", "mode": "submit", "code": "pass"}
    assert client.post("/api/execute", json=wrong).json()["passed"] is False
    assert "no passing Submit" in _post_events(client, session, forged[1:])["rejected"][0]["error"]
    right = {**wrong, "code": CHAT_CODE}
    assert client.post("/api/execute", json=right).json()["passed"] is True
    untitled = {**forged[1], "seq": 2, "task": None}  # no task: no verdict to lean on
    assert "must name its task" in _post_events(client, session, [untitled])["rejected"][0]["error"]
    assert _post_events(client, session, forged[1:])["acked"] == [1]
    stored = [
        (e["type"], e["tab"], e["data"].get("passed")) for e in read_events(client.state.store.path)
    ]
    assert stored == [
        ("submit", "server", False),
        ("submit", "server", True),
        ("task_finished", "tab-1", None),
    ]


def test_two_tabs_of_one_session_lose_nothing(make_client) -> None:
    client = make_client(("none",))
    session = client.post("/api/session", json={}).json()["session"]
    for tab in ("tab-a", "tab-b"):  # both number their events from 0
        events = [_event(session, i, "snapshot", {"code": f"{tab}{i}"}, tab=tab) for i in range(3)]
        assert _post_events(client, session, events)["acked"] == [0, 1, 2]
        assert _post_events(client, session, events[:1])["stored"] == 0  # a retry
    codes = sorted(e["data"]["code"] for e in read_events(client.state.store.path))
    assert codes == [f"{t}{i}" for t in ("tab-a", "tab-b") for i in range(3)]
    again = client.get(f"/api/session/{session}").json()
    assert again["next_seq"] == 6


def test_one_participant_code_is_one_session(make_client) -> None:
    client = make_client()
    first = client.post("/api/session", json={"participant": "P-7"}).json()
    second = client.post("/api/session", json={"participant": "P-7"}).json()
    assert first["resumed"] is False and second["resumed"] is True
    assert second["session"] == first["session"]
    assert client.post("/api/session", json={"participant": ["x"]}).status_code == 400


def test_survey_answers_must_fit_the_items_of_the_condition(make_client) -> None:
    client = make_client(("none",))
    view = client.post("/api/session", json={}).json()
    session = view["session"]
    assert [i["id"] for i in view["surveys"]["post"]] == ["comments"]  # no "AI assistant" item
    assert all("screen" not in i for i in view["surveys"]["pre"])  # the answers stay hidden

    def answer(seq, survey, item, value):
        data = {"survey": survey, "item": item, "answer": value}
        return _post_events(client, session, [_event(session, seq, "survey_answer", data)])

    assert "not in this condition" in answer(0, "post", "helpfulness", 6)["rejected"][0]["error"]
    assert "one of its options" in answer(1, "pre", "experience", "7")["rejected"][0]["error"]
    assert "non-empty text" in answer(2, "post", "comments", " ")["rejected"][0]["error"]
    assert answer(3, "pre", "experience", "3+")["acked"] == [3]
    assert answer(4, "pre", "adult", "no")["acked"] == [4]
    stored = {e["data"]["item"]: e["data"] for e in read_events(client.state.store.path)}
    assert stored["adult"]["screened_out"] is True and "screened_out" not in stored["experience"]


def test_a_scale_answer_outside_its_range_is_rejected(make_client) -> None:
    client = make_client(("chat",))
    session = client.post("/api/session", json={}).json()["session"]
    data = {"survey": "post", "item": "helpfulness", "answer": 11}
    reply = _post_events(client, session, [_event(session, 0, "survey_answer", data)])
    assert "1..10" in reply["rejected"][0]["error"]


MALFORMED = [
    b"{not json",
    b"[1, 2]",
    b'"text"',
    b"\xff\xfe{}",
    b'{"session": NaN}',
    b'{"a": Infinity}',
    b"[" * 100_000 + b"]" * 100_000,
    b'{"participant": "\\ud800"}',
]


@pytest.mark.parametrize("body", MALFORMED, ids=range(len(MALFORMED)))
@pytest.mark.parametrize("path", ["/api/session", "/api/events", "/api/chat", "/api/execute"])
def test_every_malformed_body_is_a_400_with_a_reason(make_client, path, body) -> None:
    client = make_client()
    reply = client.post(path, content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 400 and reply.json()["error"]


def test_malformed_events_are_rejected_one_by_one_never_a_500(make_client) -> None:
    client = make_client(("none",))
    session = client.post("/api/session", json={}).json()["session"]
    good = _event(session, 0, "snapshot", {"code": "x"})
    bad = [
        {**good, "seq": 2**70},
        {**good, "seq": -1},
        {**good, "seq": True},
        {**good, "client_time": 2**64},
        {**good, "tab": "a/b"},
        {**good, "data": {"code": 1}},
        {**good, "type": "nope"},
        {**good, "task": "x" * 1000},
        [1],
        None,
        {**good, "data": {"elapsed_s": 1e308}, "type": "skip"},
    ]
    reply = client.post("/api/events", json={"session": session, "events": bad})
    assert reply.status_code == 200
    body = reply.json()
    assert len(body["rejected"]) == len(bad) - 1 and body["acked"] == [0]
    for events in ({"x": 1}, [1] * 201, "text"):
        reply = client.post("/api/events", json={"session": session, "events": events})
        assert reply.status_code == 400 and "events must be" in reply.json()["error"]


def test_an_oversized_body_is_refused_without_reading_it(
    serve, rhe_tasks, fake_model, tmp_path
) -> None:
    """A chunked body of 64 MiB (no Content-Length) is answered 413 long before its end."""
    import select
    import socket
    from urllib.parse import urlsplit

    study = serve(write_test_study(tmp_path, fake_model.base_url))
    url = urlsplit(study.base_url)
    chunk = b" " * (1 << 20)
    sent, answered = 0, b""
    with socket.create_connection((url.hostname, url.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        try:
            for _ in range(64):
                if select.select([sock], [], [], 0)[0]:
                    break  # the server has answered
                sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                sent += len(chunk)
        except OSError:
            pass  # the server closed the connection after its answer
        answered = sock.recv(200)
    assert answered.startswith(b"HTTP/1.1 413")
    assert sent < 64 * len(chunk)


def test_a_declared_oversized_body_is_refused_at_once(make_client) -> None:
    client = make_client()
    declared = client.post(
        "/api/events", content=b"{}", headers={"Content-Length": str(MAX_BODY_BYTES + 1)}
    )
    assert declared.status_code == 413


def test_a_model_that_is_down_gets_a_neutral_message_an_event_and_an_admin_count(
    make_client, fake_model
) -> None:
    client = make_client(("chat",))
    session = client.post("/api/session", json={}).json()["session"]
    fake_model.down = True
    reply = client.post(
        "/api/chat", json={"session": session, "messages": [{"role": "user", "content": "hi"}]}
    )
    assert reply.status_code == 503 and reply.json() == {"error": UNAVAILABLE}
    assert "fake" not in reply.text and "500" not in reply.text
    (event,) = [e for e in read_events(client.state.store.path) if e["type"] == "model_error"]
    assert event["tab"] == "server" and event["data"]["service"] == "chat"
    page = client.get("/admin?token=tok").text
    assert "<th>model errors</th>" in page and "<td>chat</td>" in page
    row = page.split("<td>chat</td>")[-1].split("</tr>")[0]
    assert row.rstrip().endswith("<td>1</td>")


def test_model_calls_of_one_condition_run_concurrently(make_client, fake_model) -> None:
    client = make_client(("chat",))
    session = client.post("/api/session", json={}).json()["session"]
    fake_model.delay_s = 0.5
    replies = []

    def ask() -> None:
        message = {"session": session, "messages": [{"role": "user", "content": "hi"}]}
        replies.append(client.post("/api/chat", json=message).status_code)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert replies == [200] * 4 and fake_model.max_in_flight == 4


def test_a_completion_model_fills_the_middle(make_client, fake_model) -> None:
    client = make_client(("fim",))
    session = client.post("/api/session", json={}).json()["session"]
    body = {"session": session, "prefix": "def f(numbers):\n    ", "suffix": "\n\nprint(f([1]))"}
    reply = client.post("/api/suggest", json=body).json()
    assert reply["suggestion"] == FIM_MIDDLE  # cut at the end-of-middle token
    sent = fake_model.bodies[-1]
    assert sent["model"] == "fake-base" and sent["prompt"].startswith("<PRE> def f(numbers):")
    assert sent["prompt"].endswith(" <SUF>\n\nprint(f([1])) <MID>")
    assert sent["max_tokens"] == reply["max_tokens"] and "<EOT>" in sent["stop"]


def test_responses_are_scrubbed_of_secrets(make_client) -> None:
    client = make_client()
    study = client.state.study
    client.state.study = dataclasses.replace(study, instructions=f"key {TEST_KEY} here")
    text = client.post("/api/session", json={}).text
    assert TEST_KEY not in text and "key *** here" in text


def test_the_completion_url_reaches_the_end_page_config(make_client, rhe_tasks) -> None:
    client = make_client(("none",))
    study = client.state.study
    client.state.study = dataclasses.replace(
        study, completion_url="https://app.example.org/done?cc={end_code}"
    )
    view = client.post("/api/session", json={}).json()
    assert view["completion_url"] == "https://app.example.org/done?cc={end_code}"


def test_a_password_in_the_model_url_reaches_no_response_or_event(
    rhe_tasks, tmp_path, monkeypatch
) -> None:
    from seebench_study.loadtest import free_port

    monkeypatch.setenv("STUDY_TEST_KEY", TEST_KEY)
    url = f"http://user:Hunter2Secret@127.0.0.1:{free_port()}/v1"  # nothing listens there
    client, state = _client(write_test_study(tmp_path, url, conditions=("chat",)), tmp_path)
    with client:
        session = client.post("/api/session", json={}).json()["session"]
        reply = client.post(
            "/api/chat", json={"session": session, "messages": [{"role": "user", "content": "x"}]}
        )
        assert reply.status_code == 503
        texts = [reply.text, client.get("/admin?token=tok").text]
        texts.append(client.get("/admin/events.jsonl?token=tok").text)
    assert all("Hunter2Secret" not in text for text in texts)
    (error,) = [e for e in read_events(state.store.path) if e["type"] == "model_error"]
    assert "Hunter2Secret" not in str(error["data"])
