"""The study event envelope, version 1, as a JSON Schema (``seebench study schema`` prints it).

Every event is ``{schema, session, seq, type, task, client_time, server_time, data}``; ``data``
has a schema per ``type``. The client sends events without ``server_time``; the server sets
it when it stores them. The analysis (``seebench_study.analysis``) reads this shape.
"""

from __future__ import annotations

from functools import cache
from typing import Any

SCHEMA_VERSION = 1

_STR = {"type": "string"}
#: Integers above 2**53 are not exact in JavaScript, and SQLite stores 64 bits at most.
MAX_INT = 2**53
_INT0 = {"type": "integer", "minimum": 0, "maximum": MAX_INT}
_BOOL = {"type": "boolean"}
_ID = {"type": "string", "minLength": 1, "maxLength": 200}


def _obj(optional: dict[str, Any] | None = None, **properties: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": sorted(properties),
        "properties": {**properties, **(optional or {})},
    }


_CODE_RESULT = _obj(code=_STR, passed=_BOOL, output=_STR)
#: The schema of ``data`` for every event type.
DATA_SCHEMAS: dict[str, dict[str, Any]] = {
    "session_started": _obj(
        condition=_STR,
        kind={"enum": ["none", "autocomplete", "chat"]},
        task_set=_INT0,
        user_agent=_STR,
    ),
    "consent": _obj(accepted=_BOOL),
    "survey_answer": _obj(
        survey={"enum": ["pre", "post"]}, item=_ID, answer={"type": ["string", "integer"]}
    ),
    "load_task": _obj({"tutorial": _BOOL}, task=_ID, index=_INT0),
    "suggestion_requested": _obj(
        request_id=_ID,
        prefix=_STR,
        suffix=_STR,
        trigger={"enum": ["auto", "hotkey"]},
        max_tokens={"type": "integer", "minimum": 1},
    ),
    "suggestion_shown": _obj(request_id=_ID, suggestion=_STR, latency_ms=_INT0),
    "suggestion_accepted": _obj(request_id=_ID, suggestion=_STR),
    "suggestion_rejected": _obj(
        request_id=_ID, suggestion=_STR, reason={"enum": ["escape", "typing", "cursor", "blur"]}
    ),
    "chat_user_message": _obj({"code": _STR}, message_id=_ID, text=_STR),
    "chat_assistant_response": _obj(message_id=_ID, reply_to=_ID, text=_STR, latency_ms=_INT0),
    "chat_copy_code": _obj({"how": {"enum": ["button", "selection"]}}, message_id=_ID, code=_STR),
    "run": _CODE_RESULT,
    "submit": _CODE_RESULT,
    "skip": _obj(elapsed_s={"type": "number", "minimum": 0}),
    "task_finished": _obj(outcome={"enum": ["passed", "skipped", "timeout"]}),
    "paste": _obj(length=_INT0, blocked=_BOOL, source={"enum": ["app", "external"]}),
    "snapshot": _obj(code=_STR),
    "session_finished": _obj(end_code=_ID),
    "model_error": _obj(service={"enum": ["suggest", "chat"]}, error=_STR, latency_ms=_INT0),
    "chat_exchange": _obj(message_id=_ID, reply_id=_ID, text=_STR, reply=_STR, latency_ms=_INT0),
}
#: Types only the server records (a browser's claim of these is rejected): code verdicts,
#: model errors, the chat log, and every step of the protocol (:mod:`seebench_study.protocol`).
SERVER_TYPES = (
    "run",
    "submit",
    "model_error",
    "chat_exchange",
    "session_started",
    "consent",
    "survey_answer",
    "load_task",
    "skip",
    "task_finished",
    "session_finished",
)
EVENT_TYPES = tuple(DATA_SCHEMAS)


def _envelope_schema() -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://seebench.dev/schemas/study-event-v{SCHEMA_VERSION}.json",
        "title": f"seebench study event, version {SCHEMA_VERSION}",
        "type": "object",
        "additionalProperties": False,
        "required": ["schema", "session", "seq", "type", "task", "client_time", "data"],
        "properties": {
            "schema": {"const": SCHEMA_VERSION},
            "session": {"type": "string", "pattern": "^s-[0-9a-f-]{36}$"},
            "seq": _INT0,
            "tab": {"type": "string", "pattern": "^[A-Za-z0-9-]{1,64}$"},
            "type": {"enum": list(EVENT_TYPES)},
            "task": {"type": ["string", "null"], "maxLength": 200},
            "client_time": _INT0,
            "server_time": _INT0,
            "data": {"type": "object"},
        },
    }


def event_schema() -> dict[str, Any]:
    """The whole envelope schema: common fields, then ``data`` chosen by ``type``."""
    return {
        **_envelope_schema(),
        "allOf": [
            {
                "if": {"properties": {"type": {"const": name}}, "required": ["type"]},
                "then": {"properties": {"data": schema}},
            }
            for name, schema in DATA_SCHEMAS.items()
        ],
    }


@cache
def _validators() -> tuple[Any, dict[str, Any]]:
    """The envelope's validator and one per type for ``data`` (checking ``data`` against its
    type's schema alone is much faster than the whole schema's 18 conditionals)."""
    import jsonschema

    make = jsonschema.Draft202012Validator
    return make(_envelope_schema()), {name: make(s) for name, s in DATA_SCHEMAS.items()}


def _first_problem(validator: Any, instance: Any, prefix: str) -> str | None:
    errors = sorted(validator.iter_errors(instance), key=lambda e: len(list(e.absolute_path)))
    if not errors:
        return None
    error = errors[-1]
    where = ".".join(
        [prefix, *map(str, error.absolute_path)] if prefix else map(str, error.absolute_path)
    )
    message = error.message if len(error.message) < 160 else error.message[:157] + "..."
    return f"{where or '<event>'}: {message}"


def event_problem(event: Any) -> str | None:
    """One line saying why ``event`` breaks the schema, or ``None`` when it is valid."""
    if not isinstance(event, dict):
        return "an event must be a JSON object"
    envelope, data = _validators()
    if not envelope.is_valid(event):
        return _first_problem(envelope, event, "")
    validator = data[event["type"]]
    if validator.is_valid(event["data"]):
        return None
    return _first_problem(validator, event["data"], "data")
