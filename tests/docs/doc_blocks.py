"""The fenced code blocks of a docs page, and the plugin files its titled blocks make up."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import REPO_ROOT

DOCS = REPO_ROOT / "docs"
FENCE = re.compile(r'^```(\w*)(?: title="([^"]+)")?\n(.*?)^```$', re.M | re.S)


def blocks(page: str) -> list[tuple[str, str | None, str]]:
    """``(language, title, text)`` of every fenced code block of ``docs/<page>``, in order."""
    text = (DOCS / page).read_text(encoding="utf-8")
    return [(m.group(1), m.group(2), m.group(3)) for m in FENCE.finditer(text)]


def walkthrough_files(page: str = "plugins.md") -> dict[str, str]:
    """The files of the page's walkthrough: titled blocks with the same title are one file."""
    files: dict[str, str] = {}
    for _, title, text in blocks(page):
        if title and "/" in title or title in ("pyproject.toml",):
            files[title] = files.get(title, "") + text
    return files


def write_files(files: dict[str, str], folder: Path) -> Path:
    """Write ``files`` (relative path -> text) below ``folder``; returns ``folder``."""
    for name, text in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return folder
