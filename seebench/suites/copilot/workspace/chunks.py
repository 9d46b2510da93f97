"""A repository cut into retrievable snippets: function- and class-level chunks via tree-sitter,
windows of lines for everything else.

Each source file (Python, JavaScript, TypeScript) is parsed with the grammars of
:mod:`seebench.suites.copilot.languages`. A definition (function, class, method, a ``const``
bound to a function, a TypeScript interface, type or enum) of at most :data:`MAX_LINES` lines is
one chunk; a longer class or function is opened and its inner definitions become chunks; a long
definition without inner ones is cut into windows. Lines no definition covers (imports,
module-level code, class headers, test ``describe`` blocks) are cut into windows of at most
:data:`WINDOW_LINES` lines. A file that does not parse is windowed whole. Line numbers are
1-based and inclusive, as in the query set's gold ranges.

:func:`repository_chunks` caches a repository's chunks as JSON under
``$SEEBENCH_HOME/copilot/workspace/chunks/`` keyed by the tree's slug and :data:`CHUNKER_VERSION`.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from seebench import safe_files

#: bumped whenever chunk boundaries change (part of the cache key)
CHUNKER_VERSION = 1
#: a definition longer than this is opened (inner definitions) or windowed
MAX_LINES = 80
#: the longest window of lines outside definitions
WINDOW_LINES = 40
#: file suffix -> tree-sitter language
SUFFIXES = {
    ".py": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
}
#: folders never indexed (dependencies, build output, VCS data)
SKIPPED_DIRS = {"node_modules", ".git", "dist", "build", "coverage", "__pycache__", ".venv"}
#: files larger than this (bytes) are generated or bundled code, not indexed
MAX_FILE_BYTES = 300_000

DEFINITIONS = {
    "function_definition",
    "class_definition",
    "decorated_definition",
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "method_definition",
    "interface_declaration",
    "type_alias_declaration",
    "enum_declaration",
    "function_signature",
}
FUNCTION_VALUES = {"arrow_function", "function_expression", "function", "class"}


@dataclass(frozen=True)
class Chunk:
    """One retrievable snippet: ``file`` (repository-relative, POSIX), inclusive 1-based lines,
    the enclosing definition's name (``""`` for a window) and the text."""

    file: str
    start: int
    end: int
    symbol: str
    text: str

    @property
    def lines(self) -> range:
        return range(self.start, self.end + 1)


def _kind(node: Any) -> str:
    """The grammar symbol of a tree-sitter node: a syntax node's kind, not a task type."""
    return node.type


def _is_definition(node: Any) -> bool:
    if _kind(node) in DEFINITIONS:
        return True
    if _kind(node) in ("lexical_declaration", "variable_declaration"):
        return any(
            (value := d.child_by_field_name("value")) is not None
            and _kind(value) in FUNCTION_VALUES
            for d in node.named_children
            if _kind(d) == "variable_declarator"
        )
    if _kind(node) == "expression_statement" and node.named_children:
        inner = node.named_children[0]
        if _kind(inner) == "assignment_expression":
            right = inner.child_by_field_name("right")
            return right is not None and _kind(right) in FUNCTION_VALUES
    return False


def _symbol(node: Any) -> str:
    if _kind(node) == "decorated_definition":
        inner = node.child_by_field_name("definition")
        return _symbol(inner) if inner is not None else ""
    name = node.child_by_field_name("name")
    if name is not None:
        return name.text.decode("utf-8", "replace")
    for child in node.named_children:
        if _kind(child) == "variable_declarator":
            return _symbol(child)
        if _kind(child) == "assignment_expression":
            left = child.child_by_field_name("left")
            return left.text.decode("utf-8", "replace") if left is not None else ""
    return ""


def _has_inner_definitions(node: Any) -> bool:
    stack = list(node.named_children)
    while stack:
        child = stack.pop()
        if _is_definition(child):
            return True
        stack.extend(child.named_children)
    return False


def _leading_comment_start(node: Any) -> int:
    """The first line of ``node`` with the comments right above it (JSDoc, ``#`` blocks; at
    most one blank line between)."""
    first = node.start_point[0]
    sibling = node.prev_named_sibling
    while sibling is not None and _kind(sibling) == "comment" and sibling.end_point[0] >= first - 2:
        first = sibling.start_point[0]
        sibling = sibling.prev_named_sibling
    return first + 1


def _definition_spans(root: Any) -> Iterator[tuple[int, int, str, str]]:
    """``(start, end, symbol, how)`` for each definition (1-based lines): ``how`` is "whole"
    (one chunk), "window" (long, no inner definitions: windowed) or "opened" (long: its inner
    definitions follow as their own spans)."""
    stack = list(reversed(root.named_children))
    while stack:
        node = stack.pop()
        if not _is_definition(node):
            stack.extend(reversed(node.named_children))
            continue
        start, end = _leading_comment_start(node), node.end_point[0] + 1
        if end - start + 1 <= MAX_LINES:
            yield start, end, _symbol(node), "whole"
        elif _has_inner_definitions(node):
            yield start, end, _symbol(node), "opened"
            stack.extend(reversed(node.named_children))
        else:
            yield start, end, _symbol(node), "window"


def _windows(lines: list[str], start: int, end: int, symbol: str = "") -> Iterator[tuple]:
    """Windows of at most WINDOW_LINES over lines ``start..end``, skipping blank-only runs."""
    begin = start
    while begin <= end:
        stop = min(begin + WINDOW_LINES - 1, end)
        if any(line.strip() for line in lines[begin - 1 : stop]):
            yield begin, stop, symbol
        begin = stop + 1


def chunk_source(text: str, file: str, language: str | None) -> list[Chunk]:
    """The chunks of one source file (``language`` None or unparsable: windows only)."""
    lines = text.splitlines()
    spans: list[tuple[int, int, str]] = []
    covered = [False] * (len(lines) + 2)
    #: line -> the innermost opened definition around it (names the windows of its rest)
    owner = [""] * (len(lines) + 2)
    if language is not None and lines:
        from seebench.suites.copilot.languages import parser

        tree = parser(language).parse(text.encode("utf-8"))
        for start, end, symbol, how in _definition_spans(tree.root_node):
            if how == "opened":
                owner[start : end + 1] = [symbol] * (end - start + 1)
                continue
            if any(covered[start : end + 1]):
                continue  # nested in a definition already taken
            spans.extend(
                [(start, end, symbol)] if how == "whole" else _windows(lines, start, end, symbol)
            )
            covered[start : end + 1] = [True] * (end - start + 1)
    run_start = None
    for number in range(1, len(lines) + 2):
        free = number <= len(lines) and not covered[number]
        if free and run_start is not None and owner[number] != owner[run_start]:
            spans.extend(_windows(lines, run_start, number - 1, owner[run_start]))
            run_start = None
        if free and run_start is None:
            run_start = number
        elif not free and run_start is not None:
            spans.extend(_windows(lines, run_start, number - 1, owner[run_start]))
            run_start = None
    spans.sort()
    return [
        Chunk(file, start, end, symbol, "\n".join(lines[start - 1 : end]))
        for start, end, symbol in spans
    ]


def source_files(tree: Path) -> Iterator[tuple[str, Path, str]]:
    """``(relative path, path, language)`` of every indexed source file under ``tree``, sorted."""
    found = []
    for folder, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS and not d.startswith("."))
        for name in files:
            path = Path(folder) / name
            language = SUFFIXES.get(path.suffix)
            if language is None or name.endswith((".min.js", ".d.ts.map")):
                continue
            if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
                continue
            found.append((path.relative_to(tree).as_posix(), path, language))
    yield from sorted(found)


def chunk_tree(tree: Path) -> list[Chunk]:
    """The chunks of every indexed source file under ``tree`` (undecodable files skipped)."""
    chunks: list[Chunk] = []
    for relative, path, language in source_files(tree):
        try:
            text = safe_files.read_text(path, safe_files.TEXT_MAX_BYTES)
        except (OSError, UnicodeDecodeError):
            continue
        chunks.extend(chunk_source(text, relative, language))
    return chunks


def index_dir() -> Path:
    """``$SEEBENCH_HOME/copilot/workspace``: cached chunks and embeddings."""
    from seebench.data.cache import seebench_home

    return seebench_home() / "copilot" / "workspace"


def _cached_chunks(path: Path) -> list[Chunk] | None:
    """The chunks in the cache file ``path``, or None unless every record is a chunk as
    :func:`chunk_tree` writes it (the fields, their types, lines from 1 and in order)."""
    try:
        records = json.loads(safe_files.read_text(path))
    except (OSError, ValueError):
        return None
    if not isinstance(records, list):
        return None
    chunks = []
    for record in records:
        if not (
            isinstance(record, dict)
            and set(record) == {"file", "start", "end", "symbol", "text"}
            and all(type(record[k]) is str for k in ("file", "symbol", "text"))
            and all(type(record[k]) is int for k in ("start", "end"))
            and 1 <= record["start"] <= record["end"]
        ):
            return None
        chunks.append(Chunk(**record))
    return chunks


def repository_chunks(tree: Path, key: str) -> list[Chunk]:
    """The chunks of the repository ``tree`` (``key``: its slug), cached; a cache file that
    does not read back as chunks is rebuilt."""
    path = index_dir() / "chunks" / f"{key}-v{CHUNKER_VERSION}.json"
    cached = _cached_chunks(path)
    if cached is not None:
        return cached
    chunks = chunk_tree(tree)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump([asdict(c) for c in chunks], handle)
    os.replace(tmp, path)
    return chunks
