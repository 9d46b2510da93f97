"""Analyzer directives in comments: the ones an edited file adds that its original lacked.

A fix must remove a warning, not tell an analyzer to stop reporting it. An edit that adds a
comment such as ``# pylint: disable=...``, ``# type: ignore``, ``# pyright: ignore``,
``# noqa``, ``// eslint-disable-next-line``, ``/* global x */`` or ``// @ts-ignore`` changes
what the analyzer is told, not the code: the fix scorers give such an answer the verdict
``tampered`` (see :func:`seebench.suites.copilot.fix.scorer.suppression_gate`).

Directives are found in the comments of the file's syntax tree (tree-sitter), so a string
that merely contains ``# noqa`` is not one. They are compared as a multiset of their
normalised text (``"pylint: disable=no-member"``), so a directive the original already had
may move with its line; one whose text changes (a rule added to a ``disable`` list) is new.
Directives of every common analyzer of the language count, not only the case's: a
``# type: ignore`` added to quiet pylint hides the same problem from the type checkers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import tree_sitter

#: changes when the set of directives below changes (part of the fix scorers' identity)
SUPPRESSIONS_VERSION = 1

_PYTHON = re.compile(
    r"#\s*(?:"
    r"(?:flake8\s*:\s*|ruff\s*:\s*)?noqa\b"
    r"|type\s*:\s*ignore\b"
    r"|pyright\s*:\s*(?!strict\b)\S"
    r"|mypy\s*:\s*(?:ignore-errors|disable-error-code)\b"
    r"|pytype\s*:\s*disable\b"
    r"|pyre-(?:ignore|fixme|ignore-all-errors)\b"
    r")"
    r"|\bpylint\s*:\s*(?:disable(?:-next|-msg)?|skip-file|disable-all)\b",
    re.I,
)
"""Python directives, searched anywhere in a comment: pylint reads ``pylint:`` after any
``#`` of the comment, flake8 and ruff read ``# noqa`` after other text too."""

_ESLINT = re.compile(
    r"\A(?://|/\*)\s*(?:"
    r"eslint-disable(?:-line|-next-line)?\b"
    r"|eslint(?:-env)?\s"
    r"|globals?\s"
    r"|exported\s"
    r"|tslint\s*:\s*disable\b"
    r"|jshint\s+ignore\b"
    r")"
)
"""eslint's directives (and the older linters'), first in a comment: eslint reads them only
there (not after a JSDoc block's ``*``)."""

_TS = re.compile(r"^[ \t]*(?:/[/*]+|\*+)?[ \t]*@ts-(?:ignore|expect-error|nocheck)\b", re.M)
"""TypeScript's directives, at the start of a comment or of a line of a block comment."""

PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "python": (_PYTHON,),
    "javascript": (_ESLINT, _TS),
    "typescript": (_ESLINT, _TS),
    "tsx": (_ESLINT, _TS),
}


@dataclass(frozen=True)
class Directive:
    """One analyzer directive: its normalised text and the 1-based line of its comment."""

    text: str
    line: int

    def as_dict(self) -> dict[str, object]:
        """The directive as plain data (for a score's metadata)."""
        return {"text": self.text, "line": self.line}


def directives(source: str, language: str) -> list[Directive]:
    """The analyzer directives in the comments of ``source`` (none for a language without
    patterns here)."""
    patterns = PATTERNS.get(language, ())
    if not patterns:
        return []
    from seebench.suites.copilot.languages import parser

    tree = parser(language).parse(source.encode("utf-8"))
    found = []
    for node in _comments(tree.root_node):
        comment = (node.text or b"").decode("utf-8", "replace")
        for match in (m for pattern in patterns for m in pattern.finditer(comment)):
            line = node.start_point[0] + 1 + comment.count("\n", 0, match.start())
            found.append(Directive(_normalise(comment, match.start()), line))
    return found


def added_directives(original: str, edited: str, language: str) -> list[Directive]:
    """The directives of ``edited`` beyond those of ``original`` (counted by their text)."""
    budget = Counter(d.text for d in directives(original, language))
    added = []
    for directive in directives(edited, language):
        if budget[directive.text] > 0:
            budget[directive.text] -= 1
        else:
            added.append(directive)
    return added


def _comments(root: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """The comment nodes under ``root``, in file order (an explicit stack: deep trees)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            yield node
        else:
            stack.extend(reversed(node.children))


def _normalise(comment: str, start: int) -> str:
    """The directive's text from ``start``: comment markers skipped, up to the end of its
    line or the next ``#`` (several Python directives share a comment), whitespace collapsed,
    a block comment's closer dropped."""
    rest = comment[start:].lstrip("#/* \t\n")
    rest = rest.split("\n", 1)[0].split("#", 1)[0]
    return " ".join(rest.replace("*/", " ").split())
