"""CSV files seebench writes: cells a spreadsheet opens as text, never as a formula.

A model, task, group or rater name comes from a user, a plugin or a stranger's result folder.
Written raw into a CSV, a name such as ``=cmd|/c calc!A0`` is run as a formula by Excel,
LibreOffice or Google Sheets when the file is opened (CSV injection). A text cell that
begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is therefore written with
a leading ``'``, which spreadsheets show as text and hide; numbers, and text that is a plain
number such as ``-0.25``, are written unchanged. Every CSV seebench exports goes through
:func:`write_rows` or :func:`write_records` (or, for a table it writes itself, the cell
functions here), which also write atomically and never through a link
(:mod:`seebench.safe_files`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from seebench import safe_files

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet reads it as text: a formula-like string gets a leading
    ``'``; anything else is returned unchanged."""
    formula = isinstance(value, str) and value.startswith(_FORMULA_START)
    return "'" + value if formula and not _PLAIN_NUMBER.fullmatch(value) else value


def safe_row(row: Iterable[Any]) -> list[Any]:
    """:func:`safe_cell` of every cell of a list row."""
    return [safe_cell(value) for value in row]


def safe_record(row: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`safe_cell` of every value (and key) of a ``csv.DictWriter`` row."""
    return {safe_cell(key): safe_cell(value) for key, value in row.items()}


def write_rows(path: Path | str, header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> Path:
    """Write ``header`` and list ``rows`` as a CSV file at ``path`` (folders made), every
    cell through :func:`safe_cell`; atomic, never through a link."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(safe_row(header))
    writer.writerows(safe_row(row) for row in rows)
    safe_files.atomic_write_text(path, buffer.getvalue())
    return Path(path)


def write_records(
    path: Path | str,
    records: Sequence[Mapping[str, Any]],
    fieldnames: Sequence[str] | None = None,
    **options: Any,
) -> Path:
    """Write dict ``records`` as a CSV file at ``path`` with ``fieldnames`` as its header
    (default: the first record's keys), every cell through :func:`safe_cell`; ``options``
    go to :class:`csv.DictWriter` (``extrasaction``, ``restval``). Atomic, never through a
    link."""
    names = list(fieldnames if fieldnames is not None else (records[0] if records else []))
    buffer = io.StringIO(newline="")
    writer = csv.DictWriter(buffer, fieldnames=[safe_cell(n) for n in names], **options)
    writer.writeheader()
    writer.writerows(safe_record(record) for record in records)
    safe_files.atomic_write_text(path, buffer.getvalue())
    return Path(path)
