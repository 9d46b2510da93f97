"""Line helpers shared by the doc scenario's cases and checks (kept apart so that neither
imports the other)."""

from __future__ import annotations

from os.path import commonprefix


def split_lines(source: str) -> list[str]:
    """Lines as tree-sitter counts rows: split on ``\\n`` only (``\\r`` stays on the line)."""
    return source.split("\n")


def split_margin(lines: list[str]) -> tuple[str, list[str]]:
    """The whitespace every non-blank line starts with, and the lines without it."""
    margins = [line[: len(line) - len(rest)] for line in lines if (rest := line.lstrip())]
    margin = commonprefix(margins) if margins else ""
    cut = len(margin)
    return margin, [line[cut:] if not line.isspace() else "" for line in lines]
