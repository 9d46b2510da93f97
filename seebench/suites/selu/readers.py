"""Readers for SELU sources that are not tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.data.cache import TABLE_MAX_BYTES


def read_text(
    path: Path, *, encoding: str = "utf-8", column: str = "input"
) -> list[dict[str, Any]]:
    """A plain-text document as one row ``{column: whole text}`` (e.g. a raw specification)."""
    text = safe_files.read_text(path, TABLE_MAX_BYTES, encoding, errors="replace")
    return [{column: text}]
