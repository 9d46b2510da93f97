"""Exporting telemetry and per-participant metrics to JSONL, CSV or Parquet.

JSONL keeps each envelope as it is. CSV and Parquet hold one row per event with the envelope's
keys as columns and ``data`` as a JSON string, so every event type fits one table; the file is
written to a temporary name and renamed, so a failed export leaves no half-written file.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pandas as pd

from seebench.csv_files import safe_cell
from seebench.errors import SeebenchError

FORMATS = ("jsonl", "csv", "parquet")
EVENT_COLUMNS = ["session", "seq", "type", "task", "client_time", "server_time", "schema", "data"]


def events_frame(events: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per event; ``data`` as compact JSON text."""
    rows = [
        {
            **{k: e.get(k) for k in EVENT_COLUMNS},
            "data": json.dumps(e["data"], ensure_ascii=False, sort_keys=True),
        }
        for e in events
    ]
    return pd.DataFrame(rows, columns=EVENT_COLUMNS)


def format_for(path: Path, fmt: str | None) -> str:
    """The export format: ``fmt``, or the one named by the file's suffix."""
    chosen = fmt or path.suffix.lower().lstrip(".")
    if chosen not in FORMATS:
        raise SeebenchError(f"{path}: unknown export format {chosen!r}; use {', '.join(FORMATS)}")
    return chosen


def atomic_write(path: Path, write) -> Path:
    """Call ``write(tmp)`` on a temporary file beside ``path``, then rename it to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    except ImportError as exc:
        raise SeebenchError(f"{path}: writing needs {exc.name} (pip install pyarrow)") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def export_events(events: list[dict[str, Any]], path: Path, fmt: str | None = None) -> Path:
    """Write ``events`` to ``path`` in ``fmt`` (default: the file suffix)."""
    chosen = format_for(path, fmt)
    if chosen == "jsonl":

        def write(tmp: Path) -> None:
            with open(tmp, "w", encoding="utf-8") as handle:
                for event in events:
                    public = {k: v for k, v in event.items() if not k.startswith("_")}
                    handle.write(json.dumps(public, ensure_ascii=False, sort_keys=True) + "\n")

        return atomic_write(path, write)
    return export_table(events_frame(events), path, chosen)


def export_table(table: pd.DataFrame, path: Path, fmt: str | None = None) -> Path:
    """Write a table (e.g. the per-participant metrics) to ``path``."""
    chosen = format_for(path, fmt)
    if chosen == "csv":  # a participant's text never opens as a spreadsheet formula
        safe = table.map(safe_cell)
        return atomic_write(path, lambda tmp: safe.to_csv(tmp, index=False))
    if chosen == "parquet":
        return atomic_write(path, lambda tmp: table.to_parquet(tmp, index=False))
    return atomic_write(
        path, lambda tmp: table.to_json(tmp, orient="records", lines=True, force_ascii=False)
    )
