"""Files a user supplies for sources whose checksum no task pins (``seebench data add``).

Some upstream files could not be verified when a task was written (``sha256: unpinned``); the
task says where to obtain them. ``seebench data add TASK FILE`` stores such a file in the data
cache and records its sha256 in ``$SEEBENCH_HOME/data/user_files.json``: *trust on first use*.
From then on the source resolves to exactly that file (a different file is refused unless
``--replace``), results record the recorded hash as the source's checksum, and every result
that uses it carries a warning saying the file was supplied by the user, not pinned by the
task.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.data.cache import cached_file, data_dir, sha256_file, store_file
from seebench.errors import SeebenchError

RECORD_NAME = "user_files.json"


def record_path() -> Path:
    """Where the recorded hashes live (``$SEEBENCH_HOME/data/user_files.json``)."""
    return data_dir() / RECORD_NAME


def _records() -> dict[str, dict[str, dict[str, Any]]]:
    path = record_path()
    if not path.is_file():
        return {}
    try:
        data = json.loads(safe_files.read_text(path, 64 * 1024 * 1024))
    except (OSError, ValueError, RecursionError) as exc:
        raise SeebenchError(f"{path}: cannot read the recorded user files: {exc}") from None
    if not isinstance(data, dict):
        raise SeebenchError(f"{path}: expected a JSON object of tasks")
    return data


def recorded(task: str, source: str) -> dict[str, Any] | None:
    """The record of the user-supplied file of ``task``'s ``source``, or ``None``."""
    entry = _records().get(task, {}).get(source)
    return entry if isinstance(entry, dict) and isinstance(entry.get("sha256"), str) else None


def recorded_sha256(task: str, source: str) -> str | None:
    """The sha256 recorded for ``task``'s ``source`` (trust on first use), or ``None``."""
    entry = recorded(task, source)
    return entry["sha256"] if entry else None


def add_user_file(
    task: Any,
    path: Path,
    sources: list[Any],
    source_name: str | None = None,
    replace: bool = False,
):
    """Store ``path`` as the file of ``task``'s unpinned source (one of ``sources``, the
    task's data sources) and record its sha256.

    Returns ``(source, sha256, first_time)``. The source is ``source_name`` or the task's only
    unpinned source; a file whose hash differs from the one recorded earlier is refused unless
    ``replace``.
    """
    if not path.is_file():
        raise SeebenchError(f"{path}: no such file")
    unpinned = [s for s in sources if s.handler.user_supplied(s)]
    if not unpinned:
        raise SeebenchError(
            f"task {task.name!r} has no unpinned source: its files are checked against their "
            "pinned sha256 ('seebench data import DIR' takes them)"
        )
    if source_name is None:
        if len(unpinned) > 1:
            names = ", ".join(s.name for s in unpinned)
            raise SeebenchError(
                f"task {task.name!r} has several unpinned sources ({names}): --source"
            )
        source = unpinned[0]
    else:
        matches = [s for s in unpinned if s.name == source_name]
        if not matches:
            names = ", ".join(s.name for s in unpinned)
            raise SeebenchError(
                f"task {task.name!r}: no unpinned source {source_name!r} (unpinned: {names})"
            )
        source = matches[0]
    digest = sha256_file(path)
    previous = recorded_sha256(task.name, source.name)
    if previous is not None and previous != digest and not replace:
        raise SeebenchError(
            f"task {task.name!r}, source {source.name!r}: a file with sha256 {previous[:12]}... "
            f"was recorded; {path} has {digest[:12]}... (--replace records the new one)"
        )
    store_file(path, digest, source.file_name)
    records = _records()
    records.setdefault(task.name, {})[source.name] = {
        "sha256": digest,
        "file_name": path.name,
        "added_from": str(path.resolve()),
        "added_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "url": source.url,
    }
    target = record_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    from seebench.results.io import atomic_write_text

    atomic_write_text(target, json.dumps(records, indent=1, sort_keys=True) + "\n")
    return source, digest, previous is None


def user_file_path(task: str, source: str) -> Path | None:
    """The cached user-supplied file of ``task``'s ``source``, if one was recorded and is here."""
    digest = recorded_sha256(task, source)
    return cached_file(digest) if digest else None


def user_file_caveats(task: Any, sources: list[Any]) -> list[str]:
    """One warning per unpinned source of ``task`` (``sources``: its data sources) that
    resolves to a user-supplied file."""
    lines = []
    for source in sources:
        if not source.handler.user_supplied(source):
            continue
        entry = recorded(task.name, source.name)
        if entry is None:
            continue
        lines.append(
            f"data file {source.file_name} is user-supplied ('seebench data add', "
            f"{entry.get('added_at', '?')}): sha256 {entry['sha256']} was trusted on first use, "
            "not pinned by the task"
        )
    return lines
