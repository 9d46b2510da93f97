"""Where the focal method really is in its file.

The cases' ``line_range`` is approximate (in the public data the definition line is most often
two lines below its first number, but anywhere from three above to five below, and one range
starts at 0), so the method is found with tree-sitter: among the function definitions named
like the case's method (Python ``def``; JS/TS methods, function declarations, named function
expressions, and functions assigned to a variable, property or object key), the one starting nearest to the recorded
line, within ``WINDOW`` lines. Its lines (decorators excluded) are the focal range.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

WINDOW = 12
FUNCTIONS = {
    "function_definition",
    "method_definition",
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "arrow_function",
    "generator_function",
}
HOLDERS = {"variable_declarator": "name", "pair": "key", "assignment_expression": "left"}
GRAMMARS = {"python": "python", "javascript": "javascript", "typescript": "typescript"}


def _nodes(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


#: definitions that carry their own name (a named function expression among them:
#: ``module.exports = function initialize(...)`` is ``initialize``); an arrow function never does
NAMED = FUNCTIONS - {"arrow_function"}


def _name_of(node: Any) -> str | None:
    """The name a function-like node is defined under, if any."""
    if node.type in NAMED:
        name = node.child_by_field_name("name")
        return name.text.decode("utf-8", "replace") if name is not None else None
    field = HOLDERS.get(node.type)
    if field is None:
        return None
    value = node.child_by_field_name("value" if node.type != "assignment_expression" else "right")
    if value is None or value.type not in FUNCTIONS:
        return None
    name_node = node.child_by_field_name(field)
    if name_node is None:
        return None
    if name_node.type == "member_expression":
        name_node = name_node.child_by_field_name("property")
        if name_node is None:
            return None
    return name_node.text.decode("utf-8", "replace").strip("'\"")


def locate_method(text: str, language: str, method: str, near: int) -> tuple[int, int] | None:
    """(first, last) 1-based lines of the definition of ``method`` nearest to line ``near``,
    or ``None`` when there is none within :data:`WINDOW` lines."""
    from seebench.suites.copilot.languages import parser

    tree = parser(GRAMMARS[language]).parse(text.encode("utf-8"))
    best: tuple[int, int, int] | None = None
    for node in _nodes(tree.root_node):
        if _name_of(node) != method:
            continue
        first, last = node.start_point[0] + 1, node.end_point[0] + 1
        distance = abs(first - near)
        if distance <= WINDOW and (best is None or distance < best[0]):
            best = (distance, first, last)
    return (best[1], best[2]) if best else None
