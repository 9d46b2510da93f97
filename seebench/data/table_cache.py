"""Rows read from a data file, kept on disk, so that a fresh process does not parse it again.

Reading a CSV, TSV, Excel or Parquet file goes through pandas, whose import alone costs about
half a second, before the first item of a run can be prepared. The rows a data reader returns
for a file are stored under ``$SEEBENCH_HOME/cache/tables/`` keyed by everything they depend
on: the file's sha256 (its content, not its name), the source's format and reader options, the
reader's code (the bytes of its module), seebench's version and the versions of the libraries
the built-in readers parse with (:data:`PARSING_DISTRIBUTIONS`).

Only rows that survive JSON unchanged are kept: each row a mapping from text column names to
text, whole numbers, finite floats, booleans or nothing (what the built-in readers return).
Anything else (a date, a number column name) is parsed again each time.

The rows are stored as lines of at most :data:`ROWS_PER_LINE` rows each (a JSON array a
line), so that reading a large table back is many short parses: another thread (a request
loop with answers to hand on) gets the interpreter between two lines, never waits for the
whole table.

Nothing read back is trusted: a file whose header does not name the same key, row count and
the sha256 of the rows that follow it, or whose rows are not of the shape above, is ignored,
the file is parsed again and the entry rewritten. A home that cannot be written only costs
the parse. ``SEEBENCH_TABLE_CACHE=0`` turns the cache off.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: the format of a stored table; a new one ignores the old files
TABLE_CACHE_VERSION = 2
#: rows per stored line (one parse each; a line parses in about a millisecond)
ROWS_PER_LINE = 256
#: the largest table file read back
TABLE_FILE_MAX_BYTES = 512 * 1024 * 1024
#: the environment variable that turns the cache off (``0``)
TABLE_CACHE_VARIABLE = "SEEBENCH_TABLE_CACHE"

#: the distributions whose version is part of every key (the built-in readers' parsers)
PARSING_DISTRIBUTIONS = ("pandas", "numpy", "pyarrow", "openpyxl")

Rows = list[dict[str, Any]]
log = logging.getLogger(__name__)


def enabled() -> bool:
    """Whether rows are kept (``SEEBENCH_TABLE_CACHE`` is not ``0``)."""
    return os.environ.get(TABLE_CACHE_VARIABLE, "1").strip().lower() not in ("0", "false", "no")


def read_through(
    path: Any, file_format: str, options: dict[str, Any], reader: Callable[..., Rows]
) -> Rows:
    """``reader(path, **options)``, or the same rows read back from the table cache.

    ``path`` that is not a regular file (a folder, an archive member handed over as an
    object) is always read by ``reader``."""
    if not enabled() or not isinstance(path, Path) or not path.is_file():
        return reader(path, **options)
    try:
        key = table_key(path, file_format, options, reader)
    except (OSError, TypeError, ValueError) as exc:  # options that are not JSON, a vanished file
        log.debug("table cache skipped for %s: %s", path, exc)
        return reader(path, **options)
    rows = load_rows(key)
    if rows is not None:
        return rows
    rows = reader(path, **options)
    if storable(rows):
        store_rows(key, rows)
    return rows


def table_key(path: Path, file_format: str, options: dict[str, Any], reader: Callable) -> str:
    """The hex key of the rows ``reader`` makes of ``path`` in ``file_format`` with
    ``options``."""
    import seebench
    from seebench.data.cache import verified_sha256

    blob = json.dumps(
        [
            TABLE_CACHE_VERSION,
            seebench.__version__,
            verified_sha256(path),
            file_format,
            options,
            _reader_identity(reader),
            _library_versions(),
        ],
        sort_keys=True,
        ensure_ascii=False,
    ).encode()
    return hashlib.sha256(blob).hexdigest()


def storable(rows: Any) -> bool:
    """Whether ``rows`` survive a JSON round trip unchanged (see the module docstring)."""
    return isinstance(rows, list) and all(_plain_row(row) for row in rows)


def _plain_row(row: Any) -> bool:
    if not isinstance(row, dict):
        return False
    for name, value in row.items():
        if not isinstance(name, str):
            return False
        if isinstance(value, float):
            if not math.isfinite(value):
                return False
        elif value is not None and not isinstance(value, (str, int)):  # bool is an int
            return False
    return True


def load_rows(key: str) -> Rows | None:
    """The rows stored under ``key``, or None (absent, unreadable or not as stored)."""
    from seebench.safe_files import open_regular

    path = _path(key)
    try:
        with open_regular(path, TABLE_FILE_MAX_BYTES) as handle:
            header = json.loads(handle.readline())
            body = handle.read()
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.debug("table cache %s ignored: %s", path, exc)
        return None
    return _checked(header, body, key, path)


def _checked(header: Any, body: bytes, key: str, path: Path) -> Rows | None:
    """The rows of ``body`` when ``header`` vouches for them and they have the stored shape."""
    expected = {"version": TABLE_CACHE_VERSION, "key": key}
    if not isinstance(header, dict) or any(header.get(k) != v for k, v in expected.items()):
        return None
    if header.get("sha256") != hashlib.sha256(body).hexdigest():
        log.debug("table cache %s ignored: its rows do not match their checksum", path)
        return None
    rows: Rows = []
    try:
        for line in body.split(b"\n") if body else ():
            chunk = json.loads(line)
            if not isinstance(chunk, list):
                return None
            rows.extend(chunk)
    except (ValueError, RecursionError):
        return None
    if not storable(rows) or len(rows) != header.get("rows"):
        return None
    return rows


def store_rows(key: str, rows: Rows) -> None:
    """Keep ``rows`` under ``key``; a failure to write is only logged."""
    from seebench.home import seebench_home
    from seebench.safe_files import atomic_write_bytes

    body = b"\n".join(
        json.dumps(
            rows[start : start + ROWS_PER_LINE], ensure_ascii=False, allow_nan=False
        ).encode()
        for start in range(0, len(rows), ROWS_PER_LINE)
    )
    header = {
        "version": TABLE_CACHE_VERSION,
        "key": key,
        "rows": len(rows),
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    path = _path(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, json.dumps(header).encode() + b"\n" + body, root=seebench_home())
    except OSError as exc:
        log.debug("table cache %s not written: %s", path, exc)


def _path(key: str) -> Path:
    from seebench.home import seebench_home

    return seebench_home() / "cache" / "tables" / key[:2] / f"{key}.json"


def _reader_identity(reader: Callable) -> list[str]:
    """The reader's qualified name and the sha256 of its module's source file."""
    import inspect

    name = f"{getattr(reader, '__module__', '')}.{getattr(reader, '__qualname__', repr(reader))}"
    try:
        source = inspect.getsourcefile(reader)
    except TypeError:
        source = None
    return [name, _file_digest(source) if source else ""]


@functools.lru_cache(maxsize=64)
def _file_digest(path: str) -> str:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return ""


@functools.lru_cache(maxsize=1)
def _library_versions() -> dict[str, str]:
    """The installed versions of :data:`PARSING_DISTRIBUTIONS` (read from their metadata,
    without importing them)."""
    from importlib import metadata

    versions = {}
    for name in PARSING_DISTRIBUTIONS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = ""
    return versions
