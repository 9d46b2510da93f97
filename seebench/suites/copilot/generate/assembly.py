"""Putting a generated answer back into the file it was asked for (§3.3.2).

An answer is either the whole definition (``def name(...)`` / ``class name`` at column 0,
possibly with imports and helpers): it replaces the definition shown in the file; or a body:
it replaces the placeholder line, re-indented to the placeholder's indentation.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from seebench.suites.copilot.generate.items import definition_pattern, split_definition


@dataclass(frozen=True)
class Assembly:
    """The file with the answer in place (``None`` with ``error`` when it cannot be placed) and
    how it was placed (``definition`` or ``body``)."""

    source: str | None
    mode: str = ""
    error: str | None = None


def assemble(target: dict[str, Any], answer: Any) -> Assembly:
    """The item's file (``target['context']``) with ``answer`` in place."""
    if not isinstance(answer, str) or not answer.strip():
        return Assembly(None, error="no code (empty or invalid answer)")
    context, entry = target["context"], target["entry_point"]
    if definition_pattern(entry).search(answer):
        parts = split_definition(context, entry)
        if parts is None:  # the item was built from this context: cannot happen for valid data
            return Assembly(None, error=f"the file has no definition of {entry!r}")
        before, _, after = parts
        return Assembly(before + _with_newline(answer) + after, "definition")
    placeholder = target.get("placeholder")
    if not placeholder or context.count(placeholder + "\n") != 1:
        return Assembly(
            None, error=f"the answer must be the whole definition of {entry!r} for this item"
        )
    return place_body(context, placeholder, answer)


def place_body(context: str, placeholder: str, body: str) -> Assembly:
    """``context`` with its one ``placeholder`` line replaced by ``body``, re-indented to the
    placeholder's indentation (also used by the repository-level generate scenario)."""
    if context.count(placeholder + "\n") != 1:
        return Assembly(None, error="the file has no single placeholder line")
    indent = placeholder[: len(placeholder) - len(placeholder.lstrip())]
    body = textwrap.indent(textwrap.dedent(body.strip("\n")), indent)
    return Assembly(context.replace(placeholder + "\n", _with_newline(body), 1), "body")


def _with_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def definition_text(target: dict[str, Any]) -> str:
    """The definition as the file shows it (placeholder body included): the null answer."""
    parts = split_definition(target["context"], target["entry_point"])
    return parts[1] if parts else ""
