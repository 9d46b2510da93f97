"""Judging one doc answer: put it back into the whole file, parse once, run every check.

The answer (the function with its doc comment, as the model returned it) replaces the focal
function's lines in the case's file (the file without the function's original doc), dedented
and re-indented to the function's own indentation. Then, on that one parse:

- ``syntax``: the whole edited file parses without an error or missing node;
- ``found``: a function with the focal function's name starts inside the inserted lines;
- ``placement``: it has a doc comment in its language's place and convention, inside the
  inserted lines;
- ``description``: the comment describes the function in free text (not only tags);
- ``params``: every parameter is documented by name (a destructured one by any extra entry);
- ``returns``: a return value is documented when the function returns one;
- ``unchanged``: the inserted lines hold the same code as the original function (same syntax
  tree, comments and the docstring aside): name, parameters and body untouched.

``format`` is all checks but ``syntax``; an answer passes when ``syntax`` and ``format`` hold.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import tree_sitter

from seebench.suites.copilot.doc import trees
from seebench.suites.copilot.doc.comments import CONVENTIONS, DocComment, find_doc, read_doc
from seebench.suites.copilot.doc.functions import (
    COMMENT_TYPES,
    function_name,
    kind,
    nodes_of,
    parameters,
    returns_value,
    scan_rows,
)
from seebench.suites.copilot.doc.lines import split_lines, split_margin
from seebench.suites.copilot.languages import parser

#: the checks of format correctness, in report order
FORMAT_CHECKS = ("found", "placement", "description", "params", "returns", "unchanged")
CHECKS = ("syntax", *FORMAT_CHECKS, "format")


@dataclass
class Verdict:
    """The outcome of every check on one answer, the reasons of the failed ones, and the
    edited file."""

    checks: dict[str, bool]
    problems: dict[str, str] = field(default_factory=dict)
    edited: str | None = None

    @property
    def passed(self) -> bool:
        return self.checks["syntax"] and self.checks["format"]


def _fail_all(reason: str) -> Verdict:
    return Verdict(dict.fromkeys(CHECKS, False), {"answer": reason})


def insert_answer(target: dict[str, Any], answer: str) -> tuple[str, int, int]:
    """The case's file with ``answer`` in place of the focal function's lines, and the rows
    (0-based, inclusive) the answer now fills."""
    answer_lines = split_lines(answer.replace("\r\n", "\n").strip("\n"))
    _, dedented = split_margin(answer_lines)
    indent = target["indent"]
    placed = [indent + line if line else line for line in dedented]
    lines = _file_lines(target["file"])
    start, end = target["start"], target["end"]
    if placed == list(lines[start : end + 1]):  # the function as it was: the file as it was
        return target["file"], start, end
    edited = [*lines[:start], *placed, *lines[end + 1 :]]
    return "\n".join(edited), start, start + len(placed) - 1


@lru_cache(maxsize=8)
def _file_lines(text: str) -> tuple[str, ...]:
    """The lines of a case's file (the answers to one case, and the cases of one file, come
    one after another)."""
    return tuple(split_lines(text))


def region_nodes(root: tree_sitter.Node, first: int, last: int) -> list[tree_sitter.Node]:
    """The largest nodes lying wholly within rows ``first..last``, in document order."""
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.end_point[0] < first or node.start_point[0] > last:
            continue
        if node.start_point[0] >= first and node.end_point[0] <= last:
            out.append(node)
        else:
            stack.extend(reversed(node.children))
    return out


#: the bytes ``bytes.split()`` splits at
ASCII_WHITESPACE = b" \t\n\r\x0b\x0c"
COMMENT_SEXP = re.compile(r"\s*\((?:" + "|".join(sorted(COMMENT_TYPES)) + r")\)")


def _sexp(node: tree_sitter.Node) -> str:
    tree = str(node)
    return COMMENT_SEXP.sub("", tree) if "comment" in tree else tree


def code_digest(
    nodes: list[tree_sitter.Node],
    language: str,
    source: bytes,
    skip: tree_sitter.Node | None = None,
    comments: list[tree_sitter.Node] | None = None,
) -> str:
    """A digest of the code of ``nodes``: their syntax trees (node types and nesting) and
    their text without comments and whitespace, ``skip`` (a docstring) left out. Equal
    digests mean the same code, however laid out and commented.

    The comments taken out are those below the first node's parent touching the nodes'
    rows; ``comments``, when given, are the comments of a range of rows holding every one
    of ``nodes`` (a :func:`.scan_rows` of them), so that they are not looked up again."""
    if not nodes:
        return hashlib.sha256(b"").hexdigest()
    holder = nodes[0].parent or nodes[0]
    if comments is None:
        first, last = nodes[0].start_point[0], nodes[-1].end_point[0]
        cut = nodes_of(holder, language, COMMENT_TYPES, first, last)
    else:  # the same comments: those inside the holder (its rows hold the nodes' rows)
        low, high = holder.start_byte, holder.end_byte
        cut = [c for c in comments if low <= c.start_byte and c.end_byte <= high]
    if skip is not None:
        cut.append(skip)
    hasher = hashlib.sha256()
    for node in nodes:
        if kind(node) in COMMENT_TYPES:
            continue
        tree = _sexp(node)
        if skip is not None and node.start_byte <= skip.start_byte < node.end_byte:
            tree = tree.replace(" " + _sexp(skip), "", 1)
        pieces, position = [], node.start_byte
        inside = [c for c in cut if node.start_byte <= c.start_byte < node.end_byte]
        for gap in sorted(inside, key=lambda c: c.start_byte):
            pieces.append(source[position : gap.start_byte])
            position = max(position, gap.end_byte)
        pieces.append(source[position : node.end_byte])
        code = b"".join(pieces).translate(None, ASCII_WHITESPACE)  # as bytes.split() drops it
        hasher.update(tree.encode() + b"\x00" + code + b"\x01")
    return hasher.hexdigest()


def parameter_list(function: tree_sitter.Node, language: str) -> tree_sitter.Node | None:
    holder: tree_sitter.Node | None = function
    if language == "cpp":
        holder = function.child_by_field_name("declarator")
        while holder is not None and kind(holder) != "function_declarator":
            holder = holder.child_by_field_name("declarator")
    return holder.child_by_field_name("parameters") if holder is not None else None


def error_count(nodes: list[tree_sitter.Node]) -> int:
    """ERROR and MISSING nodes in ``nodes``."""
    return sum(str(n).count("(ERROR") + str(n).count("(MISSING") for n in nodes)


def reference_facts(
    root: tree_sitter.Node,
    function: tree_sitter.Node,
    language: str,
    source: bytes,
    first: int,
    last: int,
    comments: list[tree_sitter.Node] | None = None,
) -> dict[str, Any]:
    """What answers are compared with, from the file without the function's doc: the code's
    and the parameter list's digests, and the syntax errors in the file and in the range.
    ``function`` spans rows ``first..last``; ``comments`` are the comments touching them
    when the caller has them (:func:`.scan_rows`)."""
    plist = parameter_list(function, language)
    region = region_nodes(root, first, last)
    if comments is None:
        comments = nodes_of(root, language, COMMENT_TYPES, first, last)
    return {
        "code_digest": code_digest(region, language, source, comments=comments),
        "parameter_digest": code_digest(
            [plist] if plist else [], language, source, comments=comments
        ),
        "errors_in_file": error_count([root]) if root.has_error else 0,
        "errors_in_function": error_count(region) if root.has_error else 0,
    }


def _documented(facts: Any, expected: list[Any]) -> tuple[bool, str]:
    named = [p.name for p in expected if p.name is not None]
    missing = [name for name in named if name not in facts.params]
    destructured = len(expected) - len(named)
    extra = len(facts.params - set(named))
    if missing:
        return False, f"parameter(s) not documented: {', '.join(missing)}"
    if destructured > extra:
        return False, f"{destructured - extra} destructured parameter(s) not documented"
    return True, ""


def check_answer(target: dict[str, Any], answer: Any, *, reuse: bool = True) -> Verdict:
    """Every check of ``answer`` for the case ``target`` (a record of :mod:`.cases`).

    With ``reuse``, when the parse of the case's file was kept at load time (:mod:`.trees`),
    only the answer's lines are re-parsed; the verdict is the same either way."""
    if not isinstance(answer, str) or not answer.strip():
        return _fail_all("no answer")
    language, name, facts = target["language"], target["name"], target["reference"]
    edited, first, last = insert_answer(target, answer)
    data = edited.encode("utf-8")
    base = trees.kept(language, target["file"]) if reuse else None
    if base is None:
        tree = parser(language).parse(data)
        if reuse:
            trees.keep(language, target["file"], data, tree)
    else:
        tree = trees.reparse(language, *base, data)
    root = tree.root_node
    checks = dict.fromkeys(CHECKS, False)
    problems: dict[str, str] = {}
    verdict = Verdict(checks, problems, edited)
    # the file as it was, the function on the same rows: the same parse as the reference
    # facts', so the same syntax errors and the same code
    as_was = edited == target["file"] and (first, last) == (target["start"], target["end"])
    region = None if as_was else region_nodes(root, first, last)
    scan = scan_rows(root, language, first, last)
    if root.has_error and region is not None:
        in_file, in_region = error_count([root]), error_count(region)
        checks["syntax"] = (
            in_file <= facts["errors_in_file"] and in_region <= facts["errors_in_function"]
        )
    else:
        checks["syntax"] = True
    if not checks["syntax"]:
        problems["syntax"] = "the answer adds a syntax error to the file"
    function = next(
        (f for f in scan.functions if function_name(f, language) == name),
        None,
    )
    if function is None:
        problems["found"] = f"no function named {name!r} in the answer"
        return verdict
    checks["found"] = True
    doc = find_doc(function, language, data)
    inside = doc is not None and data.count(b"\n", 0, doc.start_byte) >= first
    _judge_doc(verdict, doc if inside else None, function, language)
    skip = _docstring_node(function, doc) if language == "python" else None
    if as_was and skip is None:
        checks["unchanged"] = True
    else:
        if region is None:
            region = region_nodes(root, first, last)
        digest = code_digest(region, language, data, skip, comments=scan.comments)
        checks["unchanged"] = digest == facts["code_digest"]
    if not checks["unchanged"]:
        plist = parameter_list(function, language)
        same = code_digest([plist] if plist else [], language, data) == facts["parameter_digest"]
        problems["unchanged"] = "the code changed" if same else "the parameters changed"
    checks["format"] = all(checks[c] for c in FORMAT_CHECKS)
    return verdict


def _docstring_node(function: tree_sitter.Node, doc: DocComment | None) -> Any:
    if doc is None:
        return None
    body = function.child_by_field_name("body")
    if body is None:  # a declaration without a body has no docstring
        return None
    return next((c for c in body.named_children if c.start_byte == doc.start_byte), None)


def _judge_doc(
    verdict: Verdict, doc: DocComment | None, function: tree_sitter.Node, language: str
) -> None:
    checks, problems = verdict.checks, verdict.problems
    if doc is None:
        problems["placement"] = f"no doc comment: expected {CONVENTIONS[language]}"
        return
    checks["placement"] = True
    facts = read_doc(doc, language)
    checks["description"] = facts.description
    if not facts.description:
        problems["description"] = "the doc comment has no description"
    checks["params"], reason = _documented(facts, parameters(function, language))
    if reason:
        problems["params"] = reason
    checks["returns"] = facts.returns or not returns_value(function, language)
    if not checks["returns"]:
        problems["returns"] = "the function returns a value the doc comment does not describe"
