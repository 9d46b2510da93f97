"""The event schema (version 1): every type's data is checked."""

from __future__ import annotations

import jsonschema
from seebench_study.telemetry import EVENT_TYPES, event_problem, event_schema

BASE = {
    "schema": 1,
    "session": "s-11111111-2222-3333-4444-555555555555",
    "seq": 0,
    "task": None,
    "client_time": 1,
}


def test_the_schema_is_a_valid_json_schema_covering_every_type() -> None:
    jsonschema.Draft202012Validator.check_schema(event_schema())
    assert set(EVENT_TYPES) == {  # the contract in docs/study.md
        "session_started",
        "consent",
        "survey_answer",
        "load_task",
        "suggestion_requested",
        "suggestion_shown",
        "suggestion_accepted",
        "suggestion_rejected",
        "chat_user_message",
        "chat_assistant_response",
        "chat_exchange",
        "chat_copy_code",
        "run",
        "submit",
        "skip",
        "task_finished",
        "paste",
        "snapshot",
        "session_finished",
        "model_error",
    }


def test_valid_and_invalid_events() -> None:
    good = {
        **BASE,
        "type": "suggestion_rejected",
        "data": {"request_id": "r1", "suggestion": "x", "reason": "escape"},
    }
    assert event_problem(good) is None
    bad_reason = {**good, "data": {**good["data"], "reason": "boredom"}}
    assert "data.reason" in event_problem(bad_reason)
    missing = {**BASE, "type": "run", "data": {"code": "x", "passed": True}}
    assert "'output' is a required property" in event_problem(missing)
    assert "seq" in event_problem({**good, "seq": -1})
    assert "type" in event_problem({**good, "type": "teleport"})
    assert event_problem([1]) == "an event must be a JSON object"
