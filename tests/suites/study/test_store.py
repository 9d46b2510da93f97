"""The SQLite store: idempotent on (session, seq), read back in order, damage reported."""

from __future__ import annotations

import sqlite3

import pytest

from seebench.errors import SeebenchError
from seebench.suites.study.store import StudyStore, read_events, read_sessions

SESSION = "s-11111111-2222-3333-4444-555555555555"


def _event(seq: int, type_: str = "snapshot", data=None) -> dict:
    return {
        "schema": 1,
        "session": SESSION,
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
    assert [e["seq"] for e in events] == [0, 1, 2]
    assert events[1]["data"] == {"code": "x = 1"} and events[1]["server_time"] > 0
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
