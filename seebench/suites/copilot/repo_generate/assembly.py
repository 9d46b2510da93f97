"""Putting an answer back in place of a repository method's body.

An answer is a body, or the whole function (signature included, possibly with its doc
comment or inside its class): then its body is taken out of it (a Python docstring it repeats
is dropped: the file already has it). The body replaces the placeholder line, shifted to the
placeholder's indentation by part 1's :func:`~seebench.suites.copilot.generate.assembly.place_body`;
a body already at the placeholder's indentation goes in as it is, and where some lines sit
left of the body's first line (the continuation of a multi-line string in real code) each line
is shifted by the first line's indentation instead, so that those lines keep their text.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from seebench.suites.copilot.doc.functions import COMMENT_TYPES, kind, text, walk
from seebench.suites.copilot.generate.assembly import Assembly, place_body

PYTHON_DEF = r"^(?:async\s+)?def\s+{name}\s*\("
JS_CALL = r"(?<![\w$]){name}\s*(?:<[^>]*>)?\s*\("
JS_ASSIGN = r"(?<![\w$]){name}\s*[:=]"
JS_KEYWORDS = re.compile(r"^\s*(?:if|for|while|switch|return|else|catch|do|try)\b")
CLOSING = ("}", "};", "},", "})", "});")


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def short_name(name: str) -> str:
    """The last part of a qualified name (``Job.tag`` -> ``tag``)."""
    return name.rsplit(".", 1)[-1]


def _python_body(answer: str, name: str) -> str | None:
    """The body of ``def name`` when ``answer`` is that whole definition; ``None`` when it is
    not one; ``""`` when the definition has no body besides its docstring."""
    from seebench.suites.copilot.languages import parser

    code = textwrap.dedent(answer)
    heads = [
        line.strip() for line in code.splitlines() if line.strip() and not line.startswith(" ")
    ]
    heads = [h for h in heads if not h.startswith(("@", "#", "import ", "from "))]
    definition = PYTHON_DEF.format(name=re.escape(name))
    if not heads or not (re.match(definition, heads[0]) or heads[0].startswith("class ")):
        return None
    data = code.encode("utf-8")
    tree = parser("python").parse(data)
    for node in walk(tree.root_node):
        if kind(node) != "function_definition":
            continue
        if text(node.child_by_field_name("name")) != name:
            continue
        block = node.child_by_field_name("body")
        if block is None:
            continue
        statements = [c for c in block.named_children if kind(c) not in COMMENT_TYPES]
        if statements and _is_docstring(statements[0]):
            statements = statements[1:]
        if not statements:
            return ""
        lines = code.splitlines()
        return "\n".join(lines[statements[0].start_point[0] : node.end_point[0] + 1])
    return None


def _is_docstring(statement: Any) -> bool:
    return (
        kind(statement) == "expression_statement"
        and statement.named_child_count == 1
        and kind(statement.named_children[0]) in ("string", "concatenated_string")
    )


def _strip_leading_comment(lines: list[str]) -> list[str]:
    """``lines`` without a leading ``/** ... */`` block (a repeated JSDoc comment)."""
    if lines and lines[0].strip().startswith("/*"):
        for index, line in enumerate(lines):
            if "*/" in line:
                return lines[index + 1 :]
    return lines


def _js_body(answer: str, name: str) -> str | None:
    """The lines between the first and the last line when ``answer`` is the whole function
    (its first line names it and opens a block, its last line closes it); else ``None``."""
    lines = _strip_leading_comment(answer.strip("\n").splitlines())
    while lines and not lines[0].strip():
        lines = lines[1:]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    if len(lines) < 2:
        return None
    head, tail = lines[0].rstrip(), lines[-1].strip()
    escaped = re.escape(name)
    names_it = re.search(JS_CALL.format(name=escaped), head) or re.search(
        JS_ASSIGN.format(name=escaped), head
    )
    if not head.endswith("{") or not names_it or JS_KEYWORDS.match(head) or tail not in CLOSING:
        return None
    return "\n".join(lines[1:-1])


def answer_body(answer: str, target: dict[str, Any]) -> str:
    """The body an answer gives: the answer itself, or the body of the whole function."""
    name = short_name(target["name"])
    extract = _python_body if target["language"] == "python" else _js_body
    body = extract(answer, name)
    return answer if body is None else body


def place_answer(target: dict[str, Any], answer: Any) -> Assembly:
    """The item's file (``target['context']``) with the answer's body in place of the
    placeholder line; ``mode`` is ``body`` or ``definition`` (a whole function was given)."""
    if not isinstance(answer, str) or not answer.strip():
        return Assembly(None, error="no code (empty or invalid answer)")
    body = answer_body(answer, target)
    mode = "body" if body is answer else "definition"
    if not body.strip():
        return Assembly(None, error="the answer's function has no body")
    lines = body.strip("\n").splitlines()
    base = _indent(next(line for line in lines if line.strip()))
    indent = _indent(target["placeholder"])
    if base != indent and all(line.startswith(base) for line in lines if line.strip()):
        placed = place_body(target["context"], target["placeholder"], body)
        return Assembly(placed.source, mode, placed.error)
    shifted = [indent + line[len(base) :] if line.startswith(base) else line for line in lines]
    context, placeholder = target["context"], target["placeholder"] + "\n"
    if context.count(placeholder) != 1:
        return Assembly(None, error="the file has no single placeholder line")
    return Assembly(context.replace(placeholder, "\n".join(shifted) + "\n", 1), mode)
