"""Reading envelopes: invalid ones are reported one line each and left out, the rest kept."""

from __future__ import annotations

import json

import pytest
from seebench_study.analysis.events import envelope_problem, event_time, read_events

from seebench.errors import SeebenchError


def test_valid_events_are_grouped_by_session_in_seq_order(tmp_path, session_writer):
    writer = session_writer("s-1", "auto-a", "autocomplete", task_set=3)
    writer.load("calculator", 0)
    events = list(reversed(writer.events))  # written out of order
    path = tmp_path / "e.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in events) + "\n\n", encoding="utf-8")
    log = read_events(path)
    assert log.problems == []
    session = log.sessions["s-1"]
    assert [e["seq"] for e in session.events] == [0, 1]
    assert (session.condition, session.kind, session.task_set) == ("auto-a", "autocomplete", 3)


def test_bad_lines_are_named_and_left_out(tmp_path, session_writer):
    writer = session_writer("s-1", "none", "none")
    good = writer.events[0]
    lines = [
        json.dumps(good),
        "{not json",
        json.dumps({**good, "seq": 1, "schema": 2}),
        json.dumps({**good, "seq": -1}),
        json.dumps({k: v for k, v in good.items() if k != "data"} | {"seq": 2}),
        json.dumps(good),  # duplicate (session, seq)
    ]
    path = tmp_path / "e.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    log = read_events(path)
    assert len(log.events) == 1
    assert len(log.problems) == 5
    assert all(str(path) in p and "\n" not in p for p in log.problems)
    assert "line 2: invalid JSON" in log.problems[0]
    assert any("line 3: schema is 2" in p for p in log.problems)
    assert any("line 4: key 'seq'" in p for p in log.problems)
    assert any("line 5: key 'data' is missing" in p for p in log.problems)
    assert any("line 6: duplicate" in p for p in log.problems)


def test_unknown_condition_kind_is_reported(tmp_path, session_writer):
    writer = session_writer("s-1", "x", "telepathy")
    path = tmp_path / "e.jsonl"
    path.write_text(json.dumps(writer.events[0]), encoding="utf-8")
    log = read_events(path)
    assert log.sessions["s-1"].kind is None
    assert "condition kind 'telepathy'" in log.problems[0]


def test_missing_file_is_one_clear_error(tmp_path):
    with pytest.raises(SeebenchError, match="no such file"):
        read_events(tmp_path / "nope.jsonl")


def test_event_time_prefers_the_server_clock():
    event = {"client_time": 1000, "server_time": 3000}
    assert event_time(event) == 3.0
    assert event_time({"client_time": 1000, "server_time": None}) == 1.0


def test_envelope_problem_accepts_a_valid_envelope(session_writer):
    assert envelope_problem(session_writer("s", "c", "chat").events[0]) is None
    assert envelope_problem([1]) == "not a JSON object (list)"
