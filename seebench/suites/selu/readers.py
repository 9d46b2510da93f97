"""Readers for SELU sources that are not tables."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def read_text(
    path: Path, *, encoding: str = "utf-8", column: str = "input"
) -> list[dict[str, Any]]:
    """A plain-text document as one row ``{column: whole text}`` (e.g. a raw specification)."""
    return [{column: Path(path).read_text(encoding=encoding, errors="replace")}]
