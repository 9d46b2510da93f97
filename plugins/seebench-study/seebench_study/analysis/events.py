"""Reading study telemetry: event envelopes from JSONL or the study's SQLite store.

An event is the version-1 envelope of ``docs/study_analysis.md``: ``schema``, ``session``,
``seq``, ``type``, ``task``, ``client_time``, ``server_time`` and a ``data`` object. Nothing read
from disk is trusted: an envelope that is not valid is left out and reported as one line naming
the file, the line (or row) and the key; the rest are kept. A repeated (session, seq) keeps the
first copy, as the store does.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError

SCHEMA_VERSION = 1
CONDITION_KINDS = ("none", "autocomplete", "chat")
_SQLITE_SUFFIXES = (".db", ".sqlite", ".sqlite3")


@dataclass
class Session:
    """One participant session: its condition and its events in ``seq`` order."""

    id: str
    condition: str | None = None
    kind: str | None = None
    task_set: int | None = None
    model: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class EventLog:
    """The sessions read from one source, and one line per envelope that was left out."""

    source: str
    sessions: dict[str, Session]
    problems: list[str] = field(default_factory=list)

    @property
    def events(self) -> list[dict[str, Any]]:
        """Every kept event, by session then ``seq``."""
        return [e for s in self.sessions.values() for e in s.events]


def envelope_problem(event: Any) -> str | None:
    """Why ``event`` is not a valid version-1 envelope (the key and value), or ``None``."""
    if not isinstance(event, dict):
        return f"not a JSON object ({type(event).__name__})"
    if event.get("schema") != SCHEMA_VERSION:
        return f"schema is {event.get('schema')!r}, expected {SCHEMA_VERSION}"
    checks = (
        ("session", lambda v: isinstance(v, str) and v != "", "a non-empty string"),
        ("seq", lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, "an int >= 0"),
        ("type", lambda v: isinstance(v, str) and v != "", "a non-empty string"),
        ("task", lambda v: v is None or isinstance(v, str), "a string or null"),
        ("client_time", _is_time, "ms since epoch (a number)"),
        ("server_time", lambda v: v is None or _is_time(v), "ms since epoch (a number) or null"),
        ("data", lambda v: isinstance(v, dict), "an object"),
    )
    for key, valid, expected in checks:
        if key not in event:
            return f"key {key!r} is missing"
        if not valid(event[key]):
            return f"key {key!r} is {event[key]!r:.60}, expected {expected}"
    return None


def _is_time(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


#: The ``tab`` of the events the study server records itself (verdicts, model errors).
SERVER_TAB = "server"
#: Key of a browser event's time on the server's clock (set by :func:`build_log`).
ALIGNED = "_aligned_ms"


def event_time(event: dict[str, Any]) -> float:
    """The event's time in seconds on the server's clock.

    A browser event's time is its client time shifted by its session's clock offset (the
    smallest ``server_time - client_time`` of the session's browser events), so an event that
    waited in the browser's queue (an outage) keeps the time it happened; the server's own
    events and events without a client time use ``server_time``.
    """
    stamp = event.get(ALIGNED)
    if stamp is None:
        stamp = event.get("server_time")
    return float(stamp if stamp is not None else event["client_time"]) / 1000.0


def align_clocks(session: Session) -> None:
    """Put each browser event of ``session`` on the server's clock (see :func:`event_time`)."""
    browser = [
        e
        for e in session.events
        if e.get("tab") != SERVER_TAB
        and _is_time(e.get("server_time"))
        and _is_time(e["client_time"])
    ]
    if not browser:
        return
    offset = min(e["server_time"] - e["client_time"] for e in browser)
    for event in browser:
        event[ALIGNED] = event["client_time"] + offset


def build_log(
    source: str,
    records: Iterable[tuple[str, Any]],
    session_rows: Iterable[dict[str, Any]] = (),
) -> EventLog:
    """Group ``(where, event)`` pairs into sessions, leaving out (and reporting) invalid ones.

    ``session_rows`` (from the store's sessions table) give each session's condition; a
    ``session_started`` event gives it where no row does.
    """
    sessions: dict[str, Session] = {}
    problems: list[str] = []
    seen: set[tuple[str, int]] = set()
    for where, event in records:
        problem = envelope_problem(event)
        if problem:
            problems.append(f"{source}: {where}: {problem}")
            continue
        key = (event["session"], event["seq"])
        if key in seen:
            problems.append(f"{source}: {where}: duplicate (session, seq) {key}; first kept")
            continue
        seen.add(key)
        sessions.setdefault(event["session"], Session(event["session"])).events.append(event)
    for session in sessions.values():
        session.events.sort(key=lambda e: e["seq"])
        align_clocks(session)
        for event in session.events:
            if event["type"] == "session_started":
                _apply_condition(session, event["data"], problems, source)
                break
    for row in session_rows:
        session_id = _first(row, "session", "session_id", "id")
        if isinstance(session_id, str) and session_id in sessions:
            _apply_condition(sessions[session_id], row, problems, source)
    return EventLog(source, sessions, problems)


def _first(row: dict[str, Any], *keys: str) -> Any:
    return next((row[k] for k in keys if row.get(k) is not None), None)


def _apply_condition(
    session: Session, info: dict[str, Any], problems: list[str], source: str
) -> None:
    condition = _first(info, "condition", "condition_id")
    kind = _first(info, "kind", "condition_kind")
    task_set = _first(info, "task_set", "task_set_index")
    if condition is not None:
        session.condition = str(condition)
    if kind is not None:
        if kind in CONDITION_KINDS:
            session.kind = kind
        else:
            problems.append(
                f"{source}: session {session.id}: condition kind {kind!r} is not one of "
                f"{', '.join(CONDITION_KINDS)}"
            )
    if task_set is not None:
        if isinstance(task_set, int) and not isinstance(task_set, bool):
            session.task_set = task_set
        else:
            problems.append(f"{source}: session {session.id}: task_set {task_set!r} is not an int")
    model = _first(info, "model", "model_spec")
    if model is not None:
        session.model = str(model)


def read_jsonl(path: Path) -> EventLog:
    """Events from a JSONL file (one envelope per line; blank lines are skipped)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SeebenchError(f"{path}: cannot be read ({exc})") from None
    records: list[tuple[str, Any]] = []
    bad: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append((f"line {number}", json.loads(line)))
        except json.JSONDecodeError as exc:
            bad.append(f"{path}: line {number}: invalid JSON ({exc.msg})")
    log = build_log(str(path), records)
    log.problems[:0] = bad
    return log


def read_store(path: Path) -> EventLog:
    """Events and sessions from the study app's SQLite store (``seebench_study.store``)."""
    try:
        from seebench_study import store
    except ImportError:
        raise SeebenchError(
            f"{path}: reading a study database needs seebench_study.store, which is not "
            f"installed; export the events to JSONL with the app and analyse that"
        ) from None
    try:
        events = [_as_envelope(e) for e in store.read_events(path)]
        rows = [dict(r) for r in store.read_sessions(path)]
    except SeebenchError:
        raise
    except Exception as exc:  # a damaged or foreign database
        raise SeebenchError(
            f"{path}: cannot be read as a study store ({type(exc).__name__}: {exc})"
        ) from None
    return build_log(str(path), ((f"event {i + 1}", e) for i, e in enumerate(events)), rows)


def _as_envelope(row: Any) -> Any:
    """A stored event as a dict, its ``data`` parsed when the store keeps it as JSON text."""
    try:
        event = dict(row)
    except (TypeError, ValueError):
        return row  # reported by envelope_problem
    if isinstance(event.get("data"), str):
        with contextlib.suppress(json.JSONDecodeError):  # else reported: data is not an object
            event["data"] = json.loads(event["data"])
    return event


def read_events(path: Path) -> EventLog:
    """Events from ``path``: a SQLite store (``.db``/``.sqlite``) or a JSONL file."""
    if not path.is_file():
        raise SeebenchError(f"{path}: no such file")
    if path.suffix.lower() in _SQLITE_SUFFIXES:
        return read_store(path)
    return read_jsonl(path)
