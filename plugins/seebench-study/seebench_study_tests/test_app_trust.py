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

from seebench_study_tests.conftest import TEST_KEY, enter_task, write_test_study
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


def _in_task(client, participant: str = "") -> tuple[str, str]:
    """(session, tab) of a new participant at the tutorial task."""
    view = enter_task(client, participant or f"p-{id(client)}-{threading.get_ident()}")
    return view["session"], view["tab"]


def test_a_forged_submit_is_not_counted_and_a_real_one_is(make_client, sandbox_ready) -> None:
    client = make_client(("none",))
    session, tab = _in_task(client)
    forged = [
        _event(session, 0, "submit", {"code": "pass", "passed": True, "output": ""}, "sum_product"),
        _event(session, 1, "task_finished", {"outcome": "passed"}, "sum_product"),
    ]
    reply = _post_events(client, session, forged)
    assert reply["acked"] == [] and [r["seq"] for r in reply["rejected"]] == [0, 1]
    assert all("recorded by the server" in r["error"] for r in reply["rejected"])
    wrong = {
        "session": session,
        "tab": tab,
        "task": "sum_product",
        "mode": "submit",
        "code": "pass",
    }
    assert client.post("/api/execute", json=wrong).json()["passed"] is False
    right = client.post("/api/execute", json={**wrong, "code": CHAT_CODE}).json()
    assert right["passed"] is True and right["progress"]["task"] == "even_odd_count"
    assert _post_events(client, session, forged[1:])["acked"] == []  # still the server's
    stored = [
        (e["type"], e["tab"], e["data"].get("passed"), e["data"].get("outcome"))
        for e in read_events(client.state.store.path)
        if e["type"] in ("submit", "task_finished")
    ]
    assert stored == [
        ("submit", "server", False, None),
        ("submit", "server", True, None),
        ("task_finished", "server", None, "passed"),
    ]


def test_two_tabs_of_one_session_lose_no_telemetry(make_client) -> None:
    client = make_client(("none",))
    session, _ = _in_task(client)
    for tab in ("tab-a", "tab-b"):  # both number their events from 0
        events = [_event(session, i, "snapshot", {"code": f"{tab}{i}"}, tab=tab) for i in range(3)]
        assert _post_events(client, session, events)["acked"] == [0, 1, 2]
        assert _post_events(client, session, events[:1])["stored"] == 0  # a retry
    stored = read_events(client.state.store.path)
    codes = sorted(e["data"]["code"] for e in stored if e["type"] == "snapshot")
    assert codes == [f"{t}{i}" for t in ("tab-a", "tab-b") for i in range(3)]


def test_one_participant_code_is_one_session(make_client) -> None:
    client = make_client()
    first = client.post("/api/session", json={"participant": "P-7"}).json()
    second = client.post("/api/session", json={"participant": "P-7"}).json()
    assert first["resumed"] is False and second["resumed"] is True
    assert second["session"] == first["session"]
    assert client.post("/api/session", json={"participant": ["x"]}).status_code == 400


def test_survey_answers_must_fit_the_items_of_the_phase(make_client) -> None:
    client = make_client(("none",))
    tab = "tab-1"
    view = client.post("/api/session", json={"tab": tab}).json()
    base = f"/api/session/{view['session']}"
    consent = client.post(f"{base}/consent", json={"tab": tab, "accepted": True}).json()
    items = consent["progress"]["items"]
    assert [i["id"] for i in items] == ["adult"] and "screen" not in items[0]  # hidden

    def answer(survey, answers):
        return client.post(
            f"{base}/survey", json={"tab": tab, "survey": survey, "answers": answers}
        )

    assert "not an item" in answer("screening", {"helpfulness": 6}).json()["error"]
    assert answer("screening", {}).json()["error"] == "answers: item 'adult' is required"
    assert answer("pre", {"experience": "3+"}).status_code == 409  # not yet
    assert answer("screening", {"adult": "yes"}).json()["progress"]["phase"] == "pre"
    assert "one of its options" in answer("pre", {"experience": "7"}).json()["error"]
    assert answer("pre", {"experience": "3+"}).json()["progress"]["phase"] == "task"
    stored = {
        e["data"]["item"]: e["data"]
        for e in read_events(client.state.store.path)
        if e["type"] == "survey_answer"
    }
    assert stored["adult"]["screened_out"] is False and "screened_out" not in stored["experience"]


def test_a_screened_out_participant_can_do_nothing_more(make_client) -> None:
    client = make_client(("none",))
    tab = "tab-1"
    session = client.post("/api/session", json={"tab": tab}).json()["session"]
    base = f"/api/session/{session}"
    client.post(f"{base}/consent", json={"tab": tab, "accepted": True})
    out = client.post(
        f"{base}/survey", json={"tab": tab, "survey": "screening", "answers": {"adult": "no"}}
    )
    assert out.json()["progress"]["phase"] == "screened_out"
    again = client.post(f"{base}/survey", json={"tab": tab, "survey": "pre", "answers": {}})
    assert again.status_code == 403
    assert client.post(f"{base}/finish", json={}).status_code == 409
    (answer,) = [e for e in read_events(client.state.store.path) if e["type"] == "survey_answer"]
    assert answer["data"]["screened_out"] is True


def test_a_scale_answer_outside_its_range_is_rejected(make_client) -> None:
    client = make_client(("chat",))
    session, tab = _in_task(client)
    base = f"/api/session/{session}"
    for task in ("sum_product", "even_odd_count"):  # skip_after_minutes is 0 in the test study
        phase = client.post(f"{base}/skip", json={"tab": tab, "task": task}).json()["progress"]
    assert phase["phase"] == "post"
    reply = client.post(
        f"{base}/survey", json={"tab": tab, "survey": "post", "answers": {"helpfulness": 11}}
    )
    assert reply.status_code == 400 and "1..10" in reply.json()["error"]


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
    session, _ = _in_task(client)
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
        {**good, "tab": "server"},
    ]
    reply = client.post("/api/events", json={"session": session, "events": bad})
    assert reply.status_code == 200
    body = reply.json()
    assert len(body["rejected"]) == len(bad) and body["acked"] == []  # a skip is the server's
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
    session, tab = _in_task(client)
    fake_model.down = True
    reply = client.post(
        "/api/chat", json={"session": session, "tab": tab, "message": "hi", "message_id": "m-1"}
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
    session, tab = _in_task(client)
    fake_model.delay_s = 0.5
    replies = []

    def ask() -> None:
        message = {"session": session, "tab": tab, "message": "hi", "message_id": "m-1"}
        replies.append(client.post("/api/chat", json=message).status_code)

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert replies == [200] * 4 and fake_model.max_in_flight == 4


def test_a_completion_model_fills_the_middle(make_client, fake_model) -> None:
    client = make_client(("fim",))
    session, tab = _in_task(client)
    body = {
        "session": session,
        "tab": tab,
        "prefix": "def f(numbers):\n    ",
        "suffix": "\n\nprint(f([1]))",
    }
    reply = client.post("/api/suggest", json=body).json()
    assert reply["suggestion"] == FIM_MIDDLE  # cut at the end-of-middle token
    sent = fake_model.bodies[-1]
    assert sent["model"] == "fake-base" and sent["prompt"].startswith("<PRE> def f(numbers):")
    assert sent["prompt"].endswith(" <SUF>\n\nprint(f([1])) <MID>")
    assert sent["max_tokens"] == reply["max_tokens"] and "<EOT>" in sent["stop"]


def test_responses_are_scrubbed_of_secrets(make_client) -> None:
    client = make_client()
    study = client.state.study
    client.state.study = dataclasses.replace(
        study, instructions=f"key {TEST_KEY} here", instructions_by_kind={}
    )
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
        session, tab = _in_task(client)
        reply = client.post(
            "/api/chat", json={"session": session, "tab": tab, "message": "x", "message_id": "m-1"}
        )
        assert reply.status_code == 503
        texts = [reply.text, client.get("/admin?token=tok").text]
        texts.append(client.get("/admin/events.jsonl?token=tok").text)
    assert all("Hunter2Secret" not in text for text in texts)
    (error,) = [e for e in read_events(state.store.path) if e["type"] == "model_error"]
    assert "Hunter2Secret" not in str(error["data"])
