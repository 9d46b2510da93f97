"""The SQLite store: idempotent on (session, tab, seq), one sequence per session however many
tabs, the server's own events, read back in order, damage reported."""

from __future__ import annotations

import sqlite3

import pytest
from seebench_study.store import StudyStore, read_events, read_sessions

from seebench.errors import SeebenchError

SESSION = "s-11111111-2222-3333-4444-555555555555"


def _event(seq: int, type_: str = "snapshot", data=None, tab: str = "") -> dict:
    return {
        "schema": 1,
        "session": SESSION,
        "tab": tab,
        "seq": seq,
        "type": type_,
        "task": "t",
        "client_time": 1000 + seq,
        "data": data if data is not None else {"code": f"x = {seq}"},
    }


@pytest.fixture
def store(tmp_path):
    store = StudyStore(tmp_path / "s.sqlite")
    store.create_session(
        {
            "session": SESSION,
            "study": "demo",
            "participant": "p",
            "condition": "c",
            "kind": "chat",
            "model": "m",
            "task_set": 2,
            "started": 5,
        }
    )
    yield store
    store.close()


def test_events_are_stored_once_and_read_back_in_order(store) -> None:
    assert store.add_events([_event(2), _event(0)]) == 2
    assert store.add_events([_event(0), _event(1), _event(2)]) == 1  # retries are skipped
    events = list(read_events(store.path))
    assert [e["seq"] for e in events] == [0, 1, 2]  # the store's numbering: arrival order
    assert [e["tab_seq"] for e in events] == [2, 0, 1]
    assert events[2]["data"] == {"code": "x = 1"} and events[2]["server_time"] > 0
    assert store.next_seq(SESSION) == 3
    assert store.path.with_name("s.sqlite-wal").exists()  # write-ahead log
    (session,) = read_sessions(store.path)
    assert session["kind"] == "chat" and session["task_set"] == 2 and session["finished"] is None


def test_finishing_twice_keeps_the_first_end_code(store) -> None:
    assert store.finish_session(SESSION, "AAAA") == "AAAA"
    assert store.finish_session(SESSION, "BBBB") == "AAAA"


def test_damaged_rows_and_files_are_one_line_errors(store, tmp_path) -> None:
    store.add_events([_event(0)])
    with sqlite3.connect(store.path) as raw:
        raw.execute("UPDATE events SET data='[1]' WHERE seq=0")
    with pytest.raises(SeebenchError, match=f"event {SESSION}/0: data is not a JSON object"):
        list(read_events(store.path))
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(SeebenchError, match="not a usable study database"):
        StudyStore(junk)
    with pytest.raises(SeebenchError, match="no study database here"):
        read_sessions(tmp_path / "absent.sqlite")


def test_two_tabs_numbering_from_zero_lose_nothing(store) -> None:
    tab_a = [_event(i, data={"code": f"a{i}"}, tab="tab-a") for i in range(3)]
    tab_b = [_event(i, data={"code": f"b{i}"}, tab="tab-b") for i in range(3)]
    assert store.add_events(tab_a[:2]) == 2
    assert store.add_events(tab_b) == 3
    assert store.add_events(tab_a) == 1  # a retry of a0, a1 and the new a2
    events = list(read_events(store.path))
    assert sorted(e["data"]["code"] for e in events) == ["a0", "a1", "a2", "b0", "b1", "b2"]
    assert [e["seq"] for e in events] == list(range(6))


def test_server_events_share_the_sequence_and_are_found_by_type(store) -> None:
    store.add_events([_event(0)])
    store.add_server_event(SESSION, "submit", "t", {"code": "x", "passed": True, "output": ""})
    store.add_server_event(SESSION, "model_error", None, {"service": "chat", "error": "e"})
    assert store.server_events(SESSION, "submit", "t")[0]["passed"] is True
    assert store.server_events(SESSION, "submit", "other") == []
    assert store.error_counts() == {"c": 1}
    events = list(read_events(store.path))
    assert [(e["seq"], e["tab"]) for e in events] == [(0, ""), (1, "server"), (2, "server")]


def test_a_database_of_another_version_is_refused(store, tmp_path) -> None:
    with sqlite3.connect(store.path) as raw:
        raw.execute("UPDATE meta SET value='9' WHERE key='version'")
    with pytest.raises(SeebenchError, match="version '9', expected '2'"):
        StudyStore(store.path)


V1_EVENTS = """CREATE TABLE events (session TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL,
 task TEXT, client_time INTEGER NOT NULL, server_time INTEGER NOT NULL, schema INTEGER NOT NULL,
 data TEXT NOT NULL, PRIMARY KEY (session, seq)) WITHOUT ROWID"""


def test_a_version_1_database_is_read_and_upgraded_in_place(tmp_path) -> None:
    path = tmp_path / "v1.sqlite"
    with sqlite3.connect(path) as raw:
        raw.execute(V1_EVENTS)
        raw.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        raw.execute("INSERT INTO meta VALUES ('version', '1')")
        for seq in (0, 1):
            raw.execute(
                "INSERT INTO events VALUES (?, ?, 'snapshot', 't', 1, 2, 1, ?)",
                (SESSION, seq, f'{{"code": "v1-{seq}"}}'),
            )
    assert [(e["tab"], e["tab_seq"]) for e in read_events(path)] == [("", 0), ("", 1)]
    store = StudyStore(path)
    assert store.add_events([_event(1), _event(0, tab="new-tab")]) == 1  # (tab "", 1) is stored
    store.close()
    events = list(read_events(path))
    assert [(e["seq"], e["tab"], e["tab_seq"]) for e in events] == [
        (0, "", 0),
        (1, "", 1),
        (2, "new-tab", 0),
    ]
