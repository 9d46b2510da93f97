"""Line helpers shared by the doc scenario's cases and checks (kept apart so that neither
imports the other)."""

from __future__ import annotations


def split_lines(source: str) -> list[str]:
    """Lines as tree-sitter counts rows: split on ``\\n`` only (``\\r`` stays on the line)."""
    return source.split("\n")


def split_margin(lines: list[str]) -> tuple[str, list[str]]:
    """The whitespace every non-blank line starts with, and the lines without it."""
    margins = [line[: len(line) - len(line.lstrip())] for line in lines if line.strip()]
    margin = margins[0] if margins else ""
    for other in margins[1:]:
        while not other.startswith(margin):
            margin = margin[:-1]
    return margin, [line[len(margin) :] if line.strip() else "" for line in lines]
