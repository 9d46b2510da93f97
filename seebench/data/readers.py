"""Built-in data file readers: each returns a list of row dicts.

pandas is imported inside each reader, so registering them costs nothing.
"""

from __future__ import annotations

import gzip
import io
import json
import math
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.data.cache import TABLE_MAX_BYTES


def _records(frame: Any) -> list[dict[str, Any]]:
    rows = frame.to_dict(orient="records")
    for row in rows:
        for key, value in row.items():
            if isinstance(value, float) and math.isnan(value):
                row[key] = None
    return rows


def read_csv(path: Path, **options: Any) -> list[dict[str, Any]]:
    """Read a CSV file with pandas; ``options`` go to :func:`pandas.read_csv`."""
    import pandas as pd

    safe_files.check_regular(path, TABLE_MAX_BYTES)
    return _records(pd.read_csv(path, **options))


def read_tsv(path: Path, **options: Any) -> list[dict[str, Any]]:
    """Read a tab-separated file."""
    options.setdefault("sep", "\t")
    return read_csv(path, **options)


def read_xlsx(path: Path, **options: Any) -> list[dict[str, Any]]:
    """Read one sheet of an Excel workbook (``sheet_name`` option, default the first)."""
    import pandas as pd

    options.setdefault("sheet_name", 0)
    safe_files.check_regular(path, TABLE_MAX_BYTES)
    return _records(pd.read_excel(path, engine="openpyxl", **options))


def read_parquet(path: Path, **options: Any) -> list[dict[str, Any]]:
    """Read a Parquet file (needs pyarrow)."""
    import pandas as pd

    safe_files.check_regular(path, TABLE_MAX_BYTES)
    return _records(pd.read_parquet(path, **options))


def _open_text(path: Path, encoding: str):
    """Open a text file, decompressing it when it starts with the gzip magic bytes."""
    handle = safe_files.open_regular(path, TABLE_MAX_BYTES)  # a FIFO or device is refused
    gzipped = handle.peek(2)[:2] == b"\x1f\x8b"
    if gzipped:
        return gzip.open(handle, "rt", encoding=encoding)
    return io.TextIOWrapper(handle, encoding=encoding)


def read_jsonl(path: Path, *, encoding: str = "utf-8") -> list[dict[str, Any]]:
    """Read JSON Lines (optionally gzip-compressed): one object per non-empty line."""
    rows = []
    with _open_text(path, encoding) as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: invalid JSON: {exc.msg}") from None
            rows.append(value if isinstance(value, dict) else {"value": value})
    return rows


def read_json(
    path: Path, *, encoding: str = "utf-8", records_key: str | None = None
) -> list[dict[str, Any]]:
    """Read a JSON array of objects (or the array under ``records_key``), optionally gzipped."""
    with _open_text(path, encoding) as handle:
        value = json.load(handle)
    if records_key is not None:
        value = value[records_key]
    if not isinstance(value, list):
        raise ValueError(f"{path}: expected a JSON array of objects")
    return [item if isinstance(item, dict) else {"value": item} for item in value]


def read_conll(
    path: Path,
    *,
    token_column: int = 0,
    tag_column: int = -1,
    separator: str | None = None,
    encoding: str = "utf-8",
) -> list[dict[str, Any]]:
    """Read CoNLL-style token files: one token per line, blank lines between sentences.

    Each row is ``{"tokens": [...], "tags": [...]}``.
    """
    rows: list[dict[str, Any]] = []
    tokens: list[str] = []
    tags: list[str] = []
    with _open_text(path, encoding) as handle:
        for line in handle:
            line = line.rstrip("\n")
            if not line.strip():
                if tokens:
                    rows.append({"tokens": tokens, "tags": tags})
                    tokens, tags = [], []
                continue
            parts = line.split(separator) if separator else line.split()
            tokens.append(parts[token_column])
            tags.append(parts[tag_column] if len(parts) > 1 else "O")
    if tokens:
        rows.append({"tokens": tokens, "tags": tags})
    return rows


def read_json_files(
    files: Any, *, pattern: str = "*.json", encoding: str = "utf-8"
) -> list[dict[str, Any]]:
    """Read every member of a file set whose upstream path matches ``pattern`` (a glob on the
    whole path) as one JSON object; the row records the member's path under ``_path``."""
    from fnmatch import fnmatchcase

    from seebench.data.file_sets import FileSet

    if not isinstance(files, FileSet):
        raise ValueError("the json_files reader reads a file set (a source with 'files:')")
    rows = []
    for name in sorted(files):
        if not fnmatchcase(name, pattern):
            continue
        try:
            value = json.loads(files.read_text(name, encoding))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"{name}: invalid JSON: {exc}") from None
        if not isinstance(value, dict):
            raise ValueError(f"{name}: expected a JSON object, got {type(value).__name__}")
        rows.append({**value, "_path": name})
    return rows
