"""Reading the study app's store through ``seebench_study.store`` (a stand-in here)."""

from __future__ import annotations

import json
import sys
import types

import pytest
from seebench_study.analysis.events import read_events

from seebench.errors import SeebenchError


@pytest.fixture
def fake_store(monkeypatch):
    module = types.ModuleType("seebench_study.store")
    monkeypatch.setitem(sys.modules, "seebench_study.store", module)
    import seebench_study as package

    monkeypatch.setattr(package, "store", module, raising=False)
    return module


def test_events_and_session_rows_from_the_store(fake_store, session_writer, tmp_path):
    writer = session_writer("s-1", "ignored", "none")
    writer.load("t", 0)
    stored = [{**e, "data": json.dumps(e["data"])} for e in writer.events]  # data kept as text
    stored.append({**writer.events[0], "seq": 9, "data": "{broken"})
    fake_store.read_events = lambda db: iter(stored)
    fake_store.read_sessions = lambda db: [
        {
            "session_id": "s-1",
            "condition_id": "chat-x",
            "condition_kind": "chat",
            "task_set_index": 2,
        },
        {"session_id": "s-unknown", "condition_id": "y"},
    ]
    db = tmp_path / "study.db"
    db.write_bytes(b"")
    log = read_events(db)
    session = log.sessions["s-1"]
    assert (session.condition, session.kind, session.task_set) == ("chat-x", "chat", 2)
    assert len(session.events) == 2
    assert log.problems == [f"{db}: event 3: key 'data' is '{{broken', expected an object"]


def test_a_store_that_fails_is_one_line(fake_store, tmp_path):
    def boom(db):
        raise RuntimeError("file is not a database")

    fake_store.read_events = boom
    fake_store.read_sessions = boom
    db = tmp_path / "study.sqlite"
    db.write_bytes(b"junk")
    with pytest.raises(SeebenchError, match="cannot be read as a study store.*not a database"):
        read_events(db)


def test_the_real_store_round_trips_into_the_analysis(tmp_path):
    """Sessions and events written by the app's store are what the analysis reads back."""
    from seebench_study.analysis.metrics import participant_table
    from seebench_study.store import StudyStore
    from seebench_study_tests.analysis.conftest import simulate_study

    events = simulate_study(seed=3, per_condition=2)
    db = tmp_path / "study.sqlite"
    store = StudyStore(db)
    try:
        for event in events:
            if event["type"] == "session_started":
                store.create_session(
                    {
                        "session": event["session"],
                        "study": "test",
                        "participant": event["session"],
                        "condition": event["data"]["condition"],
                        "kind": event["data"]["kind"],
                        "model": None,
                        "task_set": event["data"]["task_set"],
                        "started": event["client_time"],
                    }
                )
        assert store.add_events(events) == len(events)
        assert store.add_events(events[:5]) == 0  # a retry stores nothing twice
    finally:
        store.close()
    log = read_events(db)
    assert log.problems == []
    assert sorted(log.sessions) == sorted({e["session"] for e in events})
    assert sum(len(s.events) for s in log.sessions.values()) == len(events)
    kinds = {s.kind for s in log.sessions.values()}
    assert kinds == {"none", "autocomplete", "chat"}
    participants, _, _ = participant_table(log)
    assert len(participants) == len(log.sessions)
