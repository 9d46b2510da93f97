"""CSV cells that a spreadsheet opens as text, never as a formula.

A model or task name comes from a user, a plugin or a stranger's result folder. Written raw
into a CSV, a name such as ``=cmd|/c calc!A0`` is run as a formula by Excel, LibreOffice or
Google Sheets when the file is opened (CSV injection). A text cell that begins with ``=``,
``+``, ``-``, ``@``, a tab or a carriage return is therefore written with a leading ``'``,
which spreadsheets show as text and hide; numbers, and text that is a plain number such as
``-0.25``, are written unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

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


def safe_record(row: dict[str, Any]) -> dict[str, Any]:
    """:func:`safe_cell` of every value (and key) of a ``csv.DictWriter`` row."""
    return {safe_cell(key): safe_cell(value) for key, value in row.items()}
