"""The sweep's machine-readable event log: one JSON object a line, appended and flushed as
events happen (``sweep_start``, ``unit_start``, ``unit_retry``, ``unit_end``, ``sweep_end``,
``sweep_interrupted``). Every line has ``event`` and ``time`` (UTC, ISO 8601)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.secrets import scrub


def default_event_log(output: Path) -> Path:
    """``OUTPUT/.seebench/events-<UTC time>-<pid>.jsonl`` (hidden: not a result)."""
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    return Path(output) / ".seebench" / f"events-{stamp}-{os.getpid()}.jsonl"


def _iso(seconds: float | None = None) -> str:
    moment = (
        dt.datetime.now(dt.UTC) if seconds is None else dt.datetime.fromtimestamp(seconds, dt.UTC)
    )
    return moment.isoformat(timespec="milliseconds")


class EventLog:
    """Appends events to ``path`` (``None``: keeps them in :attr:`events` only)."""

    def __init__(self, path: Path | None):
        self.path = path
        self.events: list[dict[str, Any]] = []
        self._handle = None
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = safe_files.open_for_write(path, append=True)  # never through a link
            self._handle = os.fdopen(fd, "a", encoding="utf-8")

    def write(self, event: str, at: float | None = None, **fields: Any) -> None:
        """Record ``event``; ``at`` is when it happened (a worker's clock), default now."""
        record = {"event": event, "time": _iso(at), **fields}
        self.events.append(record)
        if self._handle is not None:
            self._handle.write(scrub(json.dumps(record, default=str)) + "\n")
            self._handle.flush()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def read_events(path: Path) -> list[dict[str, Any]]:
    """The events of a log file, in order (a FIFO, a device or a file that is not UTF-8 is
    one line naming it)."""
    return [json.loads(line) for line in safe_files.read_text(path).splitlines() if line]
