"""What the doc scenario needs to know about a function, per language, from its tree-sitter node.

For each language: which node types are functions, the function's name (the text that
identifies it: ``Material::get_colour_at`` for a C++ member defined outside its class), its
parameters (``None`` for a destructured one), whether it returns a value, and the *outer*
node a doc comment goes before (``export function``, ``template<...>``, decorators).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache

import tree_sitter

#: node types of comments in the six grammars
COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment"})
#: nodes whose ``return`` statements belong to another function
NESTED_SCOPES = frozenset(
    {
        "function_definition",
        "lambda",
        "class_definition",
        "function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "generator_function",
        "generator_function_declaration",
        "method_definition",
        "class",
        "class_declaration",
        "lambda_expression",
        "local_function_statement",
        "anonymous_method_expression",
        "class_body",
    }
)


def kind(node: tree_sitter.Node) -> str:
    """The grammar symbol of a tree-sitter node (``"function_definition"``): a syntax node's
    kind, not a task type."""
    return node.type


def text(node: tree_sitter.Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", "replace")


def walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """Every node below ``node`` (itself included) in document order, iteratively."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _body_nodes(function: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """The nodes of a function's body, not descending into nested functions or classes."""
    body = function.child_by_field_name("body")
    if body is None:
        return
    stack = [body]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(c for c in reversed(current.children) if kind(c) not in NESTED_SCOPES)


def _returns_in_body(function: tree_sitter.Node, no_value: frozenset[str]) -> bool:
    """Whether the body returns (or yields) a value: a return with an expression other than
    ``no_value`` literals, or a yield."""
    for node in _body_nodes(function):
        if kind(node) in ("yield", "yield_expression", "yield_statement"):
            return True
        if kind(node) == "return_statement":
            values = [c for c in node.named_children if kind(c) not in COMMENT_TYPES]
            if values and text(values[0]) not in no_value:
                return True
    return False


# -- names -----------------------------------------------------------------------------------


def _declarator_name(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The identifier node inside a C/C++ declarator (through pointers, references, arrays)."""
    while node is not None:
        if kind(node) in (
            "identifier",
            "field_identifier",
            "qualified_identifier",
            "destructor_name",
            "operator_name",
            "template_function",
            "operator_cast",
        ):
            return node
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next(
                (c for c in node.named_children if kind(c).endswith("declarator")),
                next((c for c in node.named_children if kind(c) == "identifier"), None),
            )
        node = inner
    return None


def _cpp_function_declarator(function: tree_sitter.Node) -> tree_sitter.Node | None:
    node = function.child_by_field_name("declarator")
    while node is not None and kind(node) != "function_declarator":
        node = node.child_by_field_name("declarator")
    return node


def function_name(function: tree_sitter.Node, language: str) -> str:
    """The name that identifies ``function`` (empty when it has none)."""
    if language == "cpp":
        declarator = _cpp_function_declarator(function)
        return text(
            _declarator_name(declarator.child_by_field_name("declarator")) if declarator else None
        )
    return text(function.child_by_field_name("name"))


# -- parameters ------------------------------------------------------------------------------


def _python_parameter(node: tree_sitter.Node) -> str | None:
    if kind(node) == "identifier":
        return text(node)
    for child in walk(node):
        if kind(child) == "identifier":
            return text(child)
    return None


def _js_parameter(node: tree_sitter.Node) -> str | None:
    target = node.child_by_field_name("pattern") or node  # TypeScript wraps parameters
    if kind(target) == "assignment_pattern":
        target = target.child_by_field_name("left") or target
    if kind(target) == "rest_pattern":
        target = next((c for c in target.named_children if kind(c) == "identifier"), target)
    if kind(target) in ("identifier", "this"):
        return text(target)
    return None  # a destructured parameter: {a, b} or [a, b]


def _named_field_parameter(node: tree_sitter.Node) -> str | None:
    name = node.child_by_field_name("name")
    if name is None:
        declarator = next(
            (c for c in node.named_children if kind(c) == "variable_declarator"), None
        )
        name = declarator.child_by_field_name("name") if declarator else None
    return text(name) if name is not None else None


def _cpp_parameter(node: tree_sitter.Node) -> str | None:
    name = _declarator_name(node.child_by_field_name("declarator"))
    return text(name) if name is not None else ""


@dataclass(frozen=True)
class Parameter:
    """One parameter: its name, or ``None`` when it is destructured (``{a, b}``)."""

    name: str | None


def parameters(function: tree_sitter.Node, language: str) -> list[Parameter]:
    """The parameters a doc comment must describe (``self``/``cls``/``this``, separators and
    unnamed C++ parameters left out)."""
    if language == "cpp":
        declarator = _cpp_function_declarator(function)
        plist = declarator.child_by_field_name("parameters") if declarator else None
    else:
        plist = function.child_by_field_name("parameters")
    if plist is None:
        return []
    out: list[Parameter] = []
    for index, node in enumerate(c for c in plist.named_children if kind(c) not in COMMENT_TYPES):
        if kind(node) in ("positional_separator", "keyword_separator", "receiver_parameter"):
            continue
        if language == "python":
            name = _python_parameter(node)
            if index == 0 and name in ("self", "cls"):
                continue
        elif language in ("javascript", "typescript"):
            name = _js_parameter(node)
            if name == "this":
                continue
        elif language == "cpp":
            name = _cpp_parameter(node)
            if not name:
                continue
        else:
            name = _named_field_parameter(node)
            if name is None:
                continue
        out.append(Parameter(name))
    return out


# -- return values ---------------------------------------------------------------------------

VOID_TYPES = frozenset({"void", "undefined", "never", "Promise<void>", "Task", "ValueTask"})


def _python_returns(function: tree_sitter.Node) -> bool:
    annotation = function.child_by_field_name("return_type")
    if annotation is not None and text(annotation) in ("None", "NoReturn", "Never"):
        return False
    return _returns_in_body(function, frozenset({"None"}))


def _js_returns(function: tree_sitter.Node) -> bool:
    annotation = function.child_by_field_name("return_type")
    if annotation is not None:
        declared = "".join(text(annotation).lstrip(":").split())
        if declared in VOID_TYPES:
            return False
    if text(function.child_by_field_name("name")) == "constructor":
        return False
    return _returns_in_body(function, frozenset({"undefined"}))


def _typed_returns(function: tree_sitter.Node, field: str) -> bool:
    declared = function.child_by_field_name(field)
    if declared is None:  # constructors, destructors
        return False
    spelled = "".join(text(declared).split())
    if spelled in VOID_TYPES:
        return False
    return spelled not in ("auto", "var") or _returns_in_body(function, frozenset())


def _cpp_returns(function: tree_sitter.Node) -> bool:
    declared = function.child_by_field_name("type")
    if declared is None:
        return False
    declarator = function.child_by_field_name("declarator")
    pointer = declarator is not None and kind(declarator) != "function_declarator"
    if text(declared) == "void" and not pointer:
        return False
    if text(declared) in ("auto", "decltype(auto)"):
        return _returns_in_body(function, frozenset())
    return True


# -- outer nodes -----------------------------------------------------------------------------


def outer_node(function: tree_sitter.Node, language: str) -> tree_sitter.Node:
    """The node a doc comment goes before: ``export ...``, ``template<...> ...``,
    ``extern "C" ...`` around the function (Python: the function itself)."""
    node = function
    wrappers = {
        "javascript": ("export_statement",),
        "typescript": ("export_statement",),
        "cpp": ("template_declaration", "linkage_specification"),
    }.get(language, ())
    while node.parent is not None and kind(node.parent) in wrappers:
        node = node.parent
    return node


@dataclass(frozen=True)
class LanguageFunctions:
    """The function rules of one language."""

    types: frozenset[str]
    returns_value: Callable[[tree_sitter.Node], bool]


RULES: dict[str, LanguageFunctions] = {
    "python": LanguageFunctions(frozenset({"function_definition"}), _python_returns),
    "javascript": LanguageFunctions(
        frozenset({"function_declaration", "generator_function_declaration", "method_definition"}),
        _js_returns,
    ),
    "typescript": LanguageFunctions(
        frozenset({"function_declaration", "generator_function_declaration", "method_definition"}),
        _js_returns,
    ),
    "java": LanguageFunctions(
        frozenset({"method_declaration", "constructor_declaration"}),
        lambda f: _typed_returns(f, "type"),
    ),
    "csharp": LanguageFunctions(
        frozenset({"method_declaration", "constructor_declaration", "local_function_statement"}),
        lambda f: _typed_returns(f, "returns"),
    ),
    "cpp": LanguageFunctions(frozenset({"function_definition"}), _cpp_returns),
}


def returns_value(function: tree_sitter.Node, language: str) -> bool:
    """Whether ``function`` gives back a value its doc comment must describe."""
    return RULES[language].returns_value(function)


@cache
def _query(language: str, kinds: tuple[str, ...]) -> tree_sitter.Query:
    from seebench.suites.copilot.languages import parser

    grammar = parser(language).language
    assert grammar is not None  # parser() sets the grammar
    known = [k for k in kinds if grammar.id_for_node_kind(k, True)]  # this grammar's own types
    return tree_sitter.Query(grammar, "[" + " ".join(f"({k})" for k in known) + "] @node")


def nodes_of(
    root: tree_sitter.Node, language: str, kinds: Iterable[str], first_row: int, last_row: int
) -> list[tree_sitter.Node]:
    """The nodes of types ``kinds`` that touch rows ``first_row..last_row``, in document
    order (outer before inner); found by a tree-sitter query, not a walk in Python."""
    cursor = tree_sitter.QueryCursor(_query(language, tuple(sorted(kinds))))
    cursor.set_point_range((first_row, 0), (last_row + 1, 0))
    found = cursor.captures(root).get("node", [])
    return sorted(found, key=lambda n: (n.start_byte, -n.end_byte))


def functions_in(
    root: tree_sitter.Node, language: str, first_row: int, last_row: int
) -> list[tree_sitter.Node]:
    """The function nodes starting within rows ``first_row..last_row`` (0-based, inclusive),
    outermost first; nested functions are listed too."""
    return [
        node
        for node in nodes_of(root, language, RULES[language].types, first_row, last_row)
        if first_row <= node.start_point[0] <= last_row
    ]


@dataclass(frozen=True)
class RowScan:
    """What one query finds in a range of rows: the function nodes starting within it
    (as :func:`functions_in` lists them) and the comment nodes touching it (as
    :func:`nodes_of` lists them)."""

    functions: list[tree_sitter.Node]
    comments: list[tree_sitter.Node]


@cache
def _scan_query(language: str) -> tree_sitter.Query:
    from seebench.suites.copilot.languages import parser

    grammar = parser(language).language
    assert grammar is not None  # parser() sets the grammar

    def group(kinds: Iterable[str], name: str) -> str:
        known = [k for k in sorted(kinds) if grammar.id_for_node_kind(k, True)]
        return "[" + " ".join(f"({k})" for k in known) + f"] @{name}"

    return tree_sitter.Query(
        grammar, group(RULES[language].types, "function") + " " + group(COMMENT_TYPES, "comment")
    )


def scan_rows(root: tree_sitter.Node, language: str, first_row: int, last_row: int) -> RowScan:
    """The functions starting within rows ``first_row..last_row`` and the comments touching
    them, found by one tree-sitter query (the same nodes as :func:`functions_in` and
    :func:`nodes_of` with :data:`COMMENT_TYPES`, in the same order)."""
    cursor = tree_sitter.QueryCursor(_scan_query(language))
    cursor.set_point_range((first_row, 0), (last_row + 1, 0))
    found = cursor.captures(root)
    functions = sorted(found.get("function", []), key=lambda n: (n.start_byte, -n.end_byte))
    comments = sorted(found.get("comment", []), key=lambda n: (n.start_byte, -n.end_byte))
    return RowScan(
        [node for node in functions if first_row <= node.start_point[0] <= last_row], comments
    )


def spanning(
    functions: list[tree_sitter.Node], first_row: int, last_row: int
) -> tree_sitter.Node | None:
    """The first of ``functions`` that spans exactly rows ``first_row..last_row``."""
    for node in functions:
        if node.start_point[0] == first_row and node.end_point[0] == last_row:
            return node
    return None


def function_at(
    root: tree_sitter.Node, language: str, first_row: int, last_row: int
) -> tree_sitter.Node | None:
    """The function that spans exactly rows ``first_row..last_row`` (a case's line range)."""
    return spanning(functions_in(root, language, first_row, last_row), first_row, last_row)
