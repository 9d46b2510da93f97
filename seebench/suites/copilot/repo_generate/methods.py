"""Documented functions of a source file whose body can be asked for (§3.3.2, §4.2.3).

A candidate is a function or method that has a doc comment in its language's convention
(Python: a docstring; JavaScript / TypeScript: a JSDoc ``/** */`` block right before it) and a
body that fills whole lines of its own:

- Python: the statements after the docstring, from the line after the docstring to the end of
  the function; the docstring stays in the file the model sees.
- JavaScript / TypeScript: the lines between the body's ``{`` and ``}`` lines. Besides
  declarations and class methods, a function expression or a braced arrow function assigned
  to a variable or a property (``res.send = function send(body) {...}``) counts, documented by
  the ``/** */`` block before its statement.

A body made of ``pass`` / ``...`` alone is left out (there is nothing to generate). Rows are
1-based and inclusive.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath

import tree_sitter

from seebench.suites.copilot.doc.comments import find_doc
from seebench.suites.copilot.doc.functions import COMMENT_TYPES, RULES, kind, text, walk

#: file suffix -> (tree-sitter grammar, the language whose conventions apply)
SUFFIXES: dict[str, tuple[str, str]] = {
    ".py": ("python", "python"),
    ".js": ("javascript", "javascript"),
    ".mjs": ("javascript", "javascript"),
    ".cjs": ("javascript", "javascript"),
    ".jsx": ("javascript", "javascript"),
    ".ts": ("typescript", "typescript"),
    ".mts": ("typescript", "typescript"),
    ".cts": ("typescript", "typescript"),
    ".tsx": ("tsx", "typescript"),
}
#: JS/TS function expressions that count when assigned to a name
ASSIGNED_FUNCTIONS = frozenset(
    {"function_expression", "function", "arrow_function", "generator_function"}
)
CLASS_TYPES = frozenset(
    {"class_definition", "class_declaration", "class", "abstract_class_declaration"}
)
#: the body line that stands for the removed body (§3.3.2: "Your Code Here")
PLACEHOLDER_TEXT = {"python": "# Your code here", "javascript": "// Your code here"}
TRIVIAL_BODIES = frozenset({"pass", "...", ";"})


@dataclass(frozen=True)
class Method:
    """One documented function whose body lines can be replaced."""

    name: str  #: qualified by its classes (``Job.tag``) or the assigned target (``res.send``)
    start_line: int  #: the first line of the definition (decorators and doc comment excluded)
    body_start: int  #: the first line of the body that is asked for
    body_end: int  #: its last line
    indent: str  #: the indentation of the body's first line

    def placeholder(self, language: str) -> str:
        """The line that replaces the body in the file the model sees."""
        comment = PLACEHOLDER_TEXT["python" if language == "python" else "javascript"]
        return self.indent + comment


def grammar_for(path: str) -> tuple[str, str] | None:
    """(tree-sitter grammar, convention language) of a file by its suffix; ``None`` when the
    file is not Python, JavaScript or TypeScript (``.d.ts`` declarations included)."""
    name = PurePosixPath(path).name
    if name.endswith(".d.ts"):
        return None
    return SUFFIXES.get(PurePosixPath(path).suffix)


def documented_methods(source: str, path: str) -> list[Method]:
    """The candidates of one file (empty for other languages or a file that does not parse)."""
    from seebench.suites.copilot.languages import parser

    grammar = grammar_for(path)
    if grammar is None:
        return []
    grammar_name, language = grammar
    data = source.encode("utf-8")
    tree = parser(grammar_name).parse(data)
    if tree.root_node.has_error:
        return []
    lines = source.splitlines()
    found = []
    for node in walk(tree.root_node):
        if language == "python":
            method = (
                _python_method(node, data, lines) if kind(node) in RULES["python"].types else None
            )
        else:
            method = _js_method(node, language, data, lines)
        if method is not None:
            found.append(method)
    return sorted(found, key=lambda m: m.start_line)


def _qualified(node: tree_sitter.Node, name: str) -> str:
    parts = [name]
    parent = node.parent
    while parent is not None:
        if kind(parent) in CLASS_TYPES and parent.child_by_field_name("name") is not None:
            parts.insert(0, text(parent.child_by_field_name("name")))
        parent = parent.parent
    return ".".join(parts)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def _python_method(function: tree_sitter.Node, data: bytes, lines: list[str]) -> Method | None:
    if find_doc(function, "python", data) is None:
        return None
    body = function.child_by_field_name("body")
    statements = [c for c in body.named_children] if body is not None else []
    code = [c for c in statements[1:] if kind(c) not in COMMENT_TYPES]
    if not code or all(text(c).strip() in TRIVIAL_BODIES for c in code):
        return None
    docstring_end = statements[0].end_point[0]
    if statements[1].start_point[0] <= docstring_end:
        return None  # the body shares the docstring's line
    first, last = docstring_end + 1, function.end_point[0]
    if not lines[first].strip():
        first = next((i for i in range(first, last + 1) if lines[i].strip()), first)
    name = text(function.child_by_field_name("name"))
    return Method(
        _qualified(function, name),
        function.start_point[0] + 1,
        first + 1,
        last + 1,
        _indent(lines[first]),
    )


def _assigned_name(function: tree_sitter.Node) -> tuple[str, tree_sitter.Node] | None:
    """(name, statement) of a function expression assigned to a variable or a property."""
    parent = function.parent
    if parent is None:
        return None
    if kind(parent) == "variable_declarator" and parent.child_by_field_name("value") == function:
        statement = parent.parent
        name = text(parent.child_by_field_name("name"))
    elif (
        kind(parent) == "assignment_expression" and parent.child_by_field_name("right") == function
    ):
        statement = parent.parent
        name = text(parent.child_by_field_name("left"))
    else:
        return None
    if statement is None or kind(statement) not in (
        "lexical_declaration",
        "variable_declaration",
        "expression_statement",
    ):
        return None
    while statement.parent is not None and kind(statement.parent) == "export_statement":
        statement = statement.parent
    return name, statement


def _jsdoc_before(statement: tree_sitter.Node, data: bytes) -> bool:
    previous = statement.prev_sibling
    if previous is None or kind(previous) not in COMMENT_TYPES:
        return False
    between = data[previous.end_byte : statement.start_byte]
    raw = text(previous)
    return not between.strip() and raw.startswith("/**") and not raw.startswith("/**/")


def _js_method(
    node: tree_sitter.Node, language: str, data: bytes, lines: list[str]
) -> Method | None:
    if kind(node) in RULES[language].types:
        if find_doc(node, language, data) is None:
            return None
        name = text(node.child_by_field_name("name"))
    elif kind(node) in ASSIGNED_FUNCTIONS:
        assigned = _assigned_name(node)
        if assigned is None or not _jsdoc_before(assigned[1], data):
            return None
        name = assigned[0]
    else:
        return None
    body = node.child_by_field_name("body")
    if body is None or kind(body) != "statement_block" or not name:
        return None
    inner = [c for c in body.named_children if kind(c) not in COMMENT_TYPES]
    if not inner or all(text(c).strip() in TRIVIAL_BODIES for c in inner):
        return None
    opening, closing = body.start_point[0], body.end_point[0]
    children = body.named_children
    if children[0].start_point[0] <= opening or children[-1].end_point[0] >= closing:
        return None  # a statement shares the line of a brace
    first = next(i for i in range(opening + 1, closing) if lines[i].strip())
    return Method(
        _qualified(node, name), node.start_point[0] + 1, first + 1, closing, _indent(lines[first])
    )
