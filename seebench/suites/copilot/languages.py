"""Tree-sitter parsers for the languages of the Copilot scenarios, one per process and language.

Each grammar is its own PyPI package (``tree-sitter-python``, ``tree-sitter-c-sharp``...), so
nothing is downloaded at run time. Language names are the harness's lower-case names.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from seebench.errors import SeebenchError

if TYPE_CHECKING:
    import tree_sitter

#: language -> (grammar module, function returning the language capsule)
GRAMMARS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "java": ("tree_sitter_java", "language"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
}

#: other spellings found in data -> the canonical name above
ALIASES = {
    "py": "python",
    "js": "javascript",
    "ts": "typescript",
    "c#": "csharp",
    "c_sharp": "csharp",
    "cs": "csharp",
    "c++": "cpp",
}


def canonical_language(name: str) -> str:
    """The canonical name of a language (``"C#"`` -> ``"csharp"``); unknown names are an error
    that lists the known ones."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in GRAMMARS:
        raise SeebenchError(f"unknown language {name!r}; known: {', '.join(sorted(GRAMMARS))}")
    return key


@cache
def parser(language: str) -> tree_sitter.Parser:
    """A tree-sitter parser for ``language`` (cached per process)."""
    key = canonical_language(language)
    module_name, function = GRAMMARS[key]
    try:
        import tree_sitter

        grammar = importlib.import_module(module_name)
    except ImportError as exc:
        raise SeebenchError(
            f"parsing {key} needs the '{exc.name}' package: pip install 'seebench[copilot]'"
        ) from None
    return tree_sitter.Parser(tree_sitter.Language(getattr(grammar, function)()))


@dataclass(frozen=True)
class SyntaxCheck:
    """Whether source parses without error; ``line`` (1-based) and ``message`` locate the first
    error or missing node when it does not."""

    ok: bool
    line: int | None = None
    message: str = ""


def check_syntax(source: str, language: str) -> SyntaxCheck:
    """Parse ``source`` as ``language``: ok when the tree has no ERROR and no MISSING node."""
    tree = parser(language).parse(source.encode("utf-8"))
    if not tree.root_node.has_error:
        return SyntaxCheck(True)
    node = _first_error(tree.root_node)
    if node is None:
        return SyntaxCheck(False, None, "syntax error")
    kind = f"missing {node.type!r}" if node.is_missing else "unexpected text"
    return SyntaxCheck(False, node.start_point[0] + 1, f"{kind} at line {node.start_point[0] + 1}")


def _first_error(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first ERROR or MISSING node in document order (iterative: deep trees are fine)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_error or current.is_missing:
            return current
        if current.has_error:
            stack.extend(reversed(current.children))
    return None
