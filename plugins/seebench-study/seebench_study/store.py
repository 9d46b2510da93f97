"""Study storage in SQLite (WAL): sessions and events, idempotent on (session, tab, seq).

Every browser tab numbers its events in its own namespace (``tab``, a random id per page
load); the store gives each new event the session's next ``seq`` when it commits it, so two
tabs of one session never collide and the session keeps one sequence. The server's own events
(Run/Submit verdicts, model errors, and every step of the protocol) have ``tab`` ``"server"``;
a browser cannot store an event under that tab.

A protocol step the server records (consent, a survey answer, a task loaded or finished, a
skip, the end) is a *fact*: stored at most once per (session, key), the key naming the task
and the kind, so a replay or a race records nothing twice. ``progress`` holds each
participant's place in the protocol (:mod:`seebench_study.protocol`), so any browser resumes
it.

An event is acknowledged to the browser only after the transaction that stores it has been
committed (``synchronous=FULL``), so a server killed at any moment loses no acknowledged
event; a re-sent event (same session, tab and tab seq) is stored once.

:func:`read_events` and :func:`read_sessions` are the analysis' read side.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError

_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    session TEXT PRIMARY KEY,
    study TEXT NOT NULL,
    participant TEXT NOT NULL,
    condition TEXT NOT NULL,
    kind TEXT NOT NULL,
    model TEXT,
    task_set INTEGER NOT NULL,
    started INTEGER NOT NULL,
    finished INTEGER,
    end_code TEXT
);
CREATE TABLE IF NOT EXISTS events (
    session TEXT NOT NULL REFERENCES sessions(session),
    seq INTEGER NOT NULL,
    tab TEXT NOT NULL,
    tab_seq INTEGER,
    type TEXT NOT NULL,
    task TEXT,
    client_time INTEGER NOT NULL,
    server_time INTEGER NOT NULL,
    schema INTEGER NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (session, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS progress (
    session TEXT PRIMARY KEY REFERENCES sessions(session),
    state TEXT NOT NULL,
    updated INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS facts (
    session TEXT NOT NULL REFERENCES sessions(session),
    key TEXT NOT NULL,
    PRIMARY KEY (session, key)
) WITHOUT ROWID;
"""
_TAB_INDEX = "CREATE UNIQUE INDEX IF NOT EXISTS events_tab ON events (session, tab, tab_seq)"
#: Version 1 had no tabs: its events become tab "" with their seq as the tab's seq.
_FROM_V1 = (
    "ALTER TABLE events ADD COLUMN tab TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE events ADD COLUMN tab_seq INTEGER",
    "UPDATE events SET tab_seq = seq",
)
STORE_VERSION = "2"
_INSERT_EVENT = (
    "INSERT OR IGNORE INTO events (session, seq, tab, tab_seq, type, task, client_time,"
    " server_time, schema, data) VALUES (?, (SELECT COALESCE(MAX(seq), -1) + 1 FROM"
    " events WHERE session=?), ?, ?, ?, ?, ?, ?, ?, ?)"
)
#: The ``tab`` of the events the server itself stores.
SERVER_TAB = "server"
SESSION_COLUMNS = (
    "session",
    "study",
    "participant",
    "condition",
    "kind",
    "model",
    "task_set",
    "started",
    "finished",
    "end_code",
)


def now_ms() -> int:
    return int(time.time() * 1000)


def _connect(path: Path, readonly: bool = False) -> sqlite3.Connection:
    if readonly:
        if not path.is_file():
            raise SeebenchError(f"{path}: no study database here")
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA busy_timeout=10000")
    return connection


class StudyStore:
    """The writable store of one study database; thread-safe (one writer at a time)."""

    def __init__(self, path: Path, clock: Callable[[], int] = now_ms) -> None:
        self.path = Path(path)
        self.clock = clock
        self._lock = threading.Lock()
        try:
            self._db = _connect(self.path)
            self._db.executescript(_SCHEMA)
            found = self._db.execute("SELECT value FROM meta WHERE key='version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise SeebenchError(f"{self.path}: not a usable study database: {exc}") from None
        if found is None:
            self._db.execute("INSERT INTO meta VALUES ('version', ?)", (STORE_VERSION,))
        elif found[0] == "1":  # a study started before tabs: upgrade it in place
            self._db.execute("BEGIN IMMEDIATE")
            for statement in _FROM_V1:
                self._db.execute(statement)
            self._db.execute("UPDATE meta SET value=? WHERE key='version'", (STORE_VERSION,))
            self._db.execute("COMMIT")
        elif found[0] != STORE_VERSION:
            raise SeebenchError(
                f"{self.path}: study database version {found[0]!r}, expected {STORE_VERSION!r}"
            )
        self._db.execute(_TAB_INDEX)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def create_session(self, row: dict[str, Any]) -> None:
        values = [row.get(c) for c in SESSION_COLUMNS]
        with self._lock:
            self._db.execute(
                f"INSERT INTO sessions VALUES ({','.join('?' * len(SESSION_COLUMNS))})", values
            )

    def session(self, session: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {','.join(SESSION_COLUMNS)} FROM sessions WHERE session=?", (session,)
            ).fetchone()
        return dict(zip(SESSION_COLUMNS, row, strict=True)) if row else None

    def finish_session(self, session: str, end_code: str) -> str:
        """Mark ``session`` finished (once); returns its end code (the first one given)."""
        with self._lock:
            self._db.execute(
                "UPDATE sessions SET finished=?, end_code=? WHERE session=? AND finished IS NULL",
                (self.clock(), end_code, session),
            )
            row = self._db.execute(
                "SELECT end_code FROM sessions WHERE session=?", (session,)
            ).fetchone()
        return row[0]

    def counts(self, column: str) -> dict[Any, int]:
        """Sessions per value of ``condition`` or ``task_set``."""
        if column not in ("condition", "task_set", "kind"):
            raise ValueError(column)
        with self._lock:
            rows = self._db.execute(f"SELECT {column}, COUNT(*) FROM sessions GROUP BY {column}")
            return dict(rows.fetchall())

    def session_by_participant(self, study: str, participant: str) -> dict[str, Any] | None:
        """The first session of ``participant`` in ``study`` (``None`` when there is none)."""
        with self._lock:
            row = self._db.execute(
                f"SELECT {','.join(SESSION_COLUMNS)} FROM sessions "
                "WHERE study=? AND participant=? ORDER BY started LIMIT 1",
                (study, participant),
            ).fetchone()
        return dict(zip(SESSION_COLUMNS, row, strict=True)) if row else None

    def next_seq(self, session: str) -> int:
        """One more than the highest stored seq of ``session`` (0 when it has none)."""
        with self._lock:
            row = self._db.execute(
                "SELECT MAX(seq) FROM events WHERE session=?", (session,)
            ).fetchone()
        return 0 if row[0] is None else row[0] + 1

    def add_events(self, events: list[dict[str, Any]]) -> int:
        """Store valid events in one committed transaction; returns how many were new.

        Each event's ``seq`` is its number in its tab's namespace (``tab``, default ``""``);
        the stored ``seq`` is the session's next one. An event whose (session, tab, seq) is
        already stored is skipped (a retry).
        """
        stamp = self.clock()
        rows = [
            (
                e["session"],
                e["session"],
                e.get("tab", ""),
                e["seq"],
                e["type"],
                e.get("task"),
                e["client_time"],
                stamp,
                e["schema"],
                json.dumps(e["data"], ensure_ascii=True, separators=(",", ":")),
            )
            for e in events
        ]
        return self._insert(rows)

    def add_server_event(
        self, session: str, type_: str, task: str | None, data: dict[str, Any]
    ) -> None:
        """Store one event the server itself observed (tab ``"server"``), committed."""
        stamp = self.clock()
        payload = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
        self._insert([(session, session, SERVER_TAB, None, type_, task, stamp, stamp, 1, payload)])

    def add_fact(
        self, session: str, key: str, type_: str, task: str | None, data: dict[str, Any]
    ) -> bool:
        """Store a server event once per (session, ``key``); ``False`` when it was already."""
        stamp = self.clock()
        payload = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
        row = (session, session, SERVER_TAB, None, type_, task, stamp, stamp, 1, payload)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                new = self._db.execute(
                    "INSERT OR IGNORE INTO facts VALUES (?, ?)", (session, key)
                ).rowcount
                if new:
                    self._db.execute(_INSERT_EVENT, row)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return bool(new)

    def load_progress(self, session: str) -> dict[str, Any] | None:
        """The participant's saved place in the protocol (``None`` before the first save)."""
        with self._lock:
            row = self._db.execute(
                "SELECT state FROM progress WHERE session=?", (session,)
            ).fetchone()
        return json.loads(row[0]) if row else None

    def save_progress(self, session: str, state: dict[str, Any]) -> None:
        """Replace the participant's saved place (committed before it returns)."""
        text = json.dumps(state, ensure_ascii=True, separators=(",", ":"))
        with self._lock:
            self._db.execute(
                "INSERT INTO progress VALUES (?, ?, ?) ON CONFLICT(session) DO UPDATE SET"
                " state=excluded.state, updated=excluded.updated",
                (session, text, self.clock()),
            )

    def all_progress(self) -> dict[str, dict[str, Any]]:
        """Every saved place, by session (the admin page's counts)."""
        with self._lock:
            rows = self._db.execute("SELECT session, state FROM progress").fetchall()
        return {session: json.loads(state) for session, state in rows}

    def _insert(self, rows: list[tuple[Any, ...]]) -> int:
        query = _INSERT_EVENT
        with self._lock:
            before = self._db.total_changes
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(query, rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return self._db.total_changes - before

    def server_events(self, session: str, type_: str, task: str | None = None) -> list[dict]:
        """The ``data`` of the server's own events of one type in ``session`` (and task)."""
        query = "SELECT data FROM events WHERE session=? AND tab=? AND type=?"
        params: list[Any] = [session, SERVER_TAB, type_]
        if task is not None:
            query += " AND task=?"
            params.append(task)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY seq", params).fetchall()
        return [json.loads(r[0]) for r in rows]

    def error_counts(self) -> dict[str, int]:
        """``model_error`` events per condition."""
        query = (
            "SELECT s.condition, COUNT(*) FROM events e JOIN sessions s ON e.session=s.session"
            " WHERE e.type='model_error' GROUP BY s.condition"
        )
        with self._lock:
            return dict(self._db.execute(query).fetchall())

    def withdraw(self, participant: str) -> tuple[int, int]:
        """Delete every session of ``participant`` and its events, then VACUUM so the rows do
        not stay in the file's free pages; returns (sessions, events) deleted."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                ids = [
                    r[0]
                    for r in self._db.execute(
                        "SELECT session FROM sessions WHERE participant=?", (participant,)
                    )
                ]
                marks = ",".join("?" * len(ids))
                events = self._db.execute(
                    f"DELETE FROM events WHERE session IN ({marks})", ids
                ).rowcount
                for table in ("facts", "progress", "sessions"):
                    self._db.execute(f"DELETE FROM {table} WHERE session IN ({marks})", ids)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("VACUUM")
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return len(ids), events

    def session_summaries(self, tutorial: str | None) -> list[dict[str, Any]]:
        """Per session: its condition, whether it has an end code, its phase, and the tasks
        after the tutorial it opened, passed and skipped, from the server's own facts only
        (a task counts once however often its events were sent)."""
        query = """
        SELECT s.session, s.condition, s.end_code IS NOT NULL, p.state,
          (SELECT COUNT(DISTINCT e.task) FROM events e WHERE e.session=s.session
             AND e.tab=:server AND e.type='load_task' AND e.task IS NOT :tutorial),
          (SELECT COUNT(DISTINCT e.task) FROM events e WHERE e.session=s.session
             AND e.tab=:server AND e.type='task_finished' AND e.task IS NOT :tutorial
             AND json_extract(e.data,'$.outcome')='passed'),
          (SELECT COUNT(DISTINCT e.task) FROM events e WHERE e.session=s.session
             AND e.tab=:server AND e.type='task_finished' AND e.task IS NOT :tutorial
             AND json_extract(e.data,'$.outcome')='skipped'),
          (SELECT COUNT(*) FROM events e WHERE e.session=s.session)
        FROM sessions s LEFT JOIN progress p ON p.session=s.session ORDER BY s.started
        """
        keys = (
            "session",
            "condition",
            "finished",
            "phase",
            "opened",
            "passed",
            "skipped",
            "events",
        )
        with self._lock:
            rows = self._db.execute(query, {"server": SERVER_TAB, "tutorial": tutorial})
            out = [dict(zip(keys, row, strict=True)) for row in rows.fetchall()]
        for row in out:
            row["phase"] = json.loads(row["phase"])["phase"] if row["phase"] else None
            row["finished"] = bool(row["finished"])
        return out


def read_sessions(db_path: Path | str) -> list[dict[str, Any]]:
    """Every session of a study database, oldest first, as dicts (columns of ``sessions``)."""
    connection = _connect(Path(db_path), readonly=True)
    try:
        rows = connection.execute(
            f"SELECT {','.join(SESSION_COLUMNS)} FROM sessions ORDER BY started, session"
        ).fetchall()
    finally:
        connection.close()
    return [dict(zip(SESSION_COLUMNS, row, strict=True)) for row in rows]


def read_events(db_path: Path | str) -> Iterator[dict[str, Any]]:
    """Every stored event as an envelope dict, ordered by (session, seq).

    ``data`` that is not a JSON object (a damaged row) is reported as one-line
    :class:`SeebenchError` naming the session and seq.
    """
    connection = _connect(Path(db_path), readonly=True)
    try:
        columns = {row[1] for row in connection.execute("PRAGMA table_info(events)")}
        tabs = "tab, tab_seq" if "tab" in columns else "'' AS tab, seq AS tab_seq"  # version 1
        cursor = connection.execute(
            "SELECT schema, session, seq, type, task, client_time, server_time, data, "
            f"{tabs} FROM events ORDER BY session, seq"
        )
        for row in cursor:
            schema, session, seq, type_, task, client_time, server_time, data, tab, tab_seq = row
            try:
                payload = json.loads(data)
            except ValueError:
                payload = None
            if not isinstance(payload, dict):
                raise SeebenchError(f"{db_path}: event {session}/{seq}: data is not a JSON object")
            yield {
                "schema": schema,
                "session": session,
                "seq": seq,
                "type": type_,
                "task": task,
                "client_time": client_time,
                "server_time": server_time,
                "data": payload,
                "tab": tab,
                "tab_seq": tab_seq,
            }
    finally:
        connection.close()
