"""Doc comments: where each language puts them, and what one says.

Conventions (one per language): Python docstrings (the first statement of the body, a plain
string literal), JSDoc / TSDoc and Javadoc ``/** */`` blocks right before the declaration (TS
and JS: before its decorators, or between them and the member), C# ``///`` XML documentation
lines, and C++ Doxygen (``/** */``, ``/*! */``, ``///`` or ``//!``). Only whitespace may
separate a comment from what it documents.

:func:`read_doc` turns a comment into :class:`DocFacts`: whether it has a description, the
parameter names it documents, and whether it documents a return value.
"""

from __future__ import annotations

import inspect
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass

import tree_sitter

from seebench.suites.copilot.doc.functions import COMMENT_TYPES, kind, outer_node, text

#: the doc-comment styles each language accepts: "docstring", "block" (/** */), "lines" (///)
STYLES: dict[str, tuple[str, ...]] = {
    "python": ("docstring",),
    "javascript": ("block",),
    "typescript": ("block",),
    "java": ("block",),
    "csharp": ("lines",),
    "cpp": ("block", "lines"),
}
#: what each language's convention is called (for explanations)
CONVENTIONS = {
    "python": "a docstring as the first statement of the body",
    "javascript": "a JSDoc /** */ comment right before the function",
    "typescript": "a TSDoc /** */ comment right before the function",
    "java": "a Javadoc /** */ comment right before the method",
    "csharp": "/// XML documentation lines right before the method",
    "cpp": "a Doxygen comment (/** */, /*! */, /// or //!) right before the function",
}
BLOCK_OPENERS = {"cpp": ("/**", "/*!")}
LINE_OPENERS = {"cpp": ("///", "//!"), "csharp": ("///",)}


@dataclass(frozen=True)
class DocComment:
    """A doc comment found for a function: its byte range in the file and its plain text
    (comment markers removed)."""

    start_byte: int
    end_byte: int
    content: str
    style: str


@dataclass(frozen=True)
class DocFacts:
    """What a doc comment says."""

    description: bool
    params: frozenset[str]
    param_count: int
    returns: bool


# -- finding ---------------------------------------------------------------------------------


def _python_docstring(function: tree_sitter.Node) -> tree_sitter.Node | None:
    body = function.child_by_field_name("body")
    if body is None:
        return None
    first = next((c for c in body.named_children if kind(c) not in COMMENT_TYPES), None)
    if first is None or kind(first) != "expression_statement" or first.named_child_count != 1:
        return None
    literal = first.named_children[0]
    if kind(literal) == "concatenated_string":
        parts = literal.named_children
    elif kind(literal) == "string":
        parts = [literal]
    else:
        return None
    for part in parts:
        prefix = text(part.child(0)).rstrip("'\"").lower()
        if set(prefix) - {"r", "u"} or any(kind(c) == "interpolation" for c in part.children):
            return None  # bytes and f-strings are not docstrings
    return first


def _string_value(statement: tree_sitter.Node) -> str:
    pieces = []
    for node in statement.named_children[0].named_children or [statement.named_children[0]]:
        if kind(node) == "string_content":
            pieces.append(text(node))
        elif kind(node) == "string":
            pieces.extend(text(c) for c in node.named_children if kind(c) == "string_content")
    return inspect.cleandoc("".join(pieces))


def _comments_before(anchor: tree_sitter.Node, source: bytes) -> list[tree_sitter.Node]:
    """The run of comments right before ``anchor`` (its previous siblings, only whitespace
    between)."""
    run: list[tree_sitter.Node] = []
    position = anchor.start_byte
    node = anchor.prev_sibling
    while node is not None and kind(node) in COMMENT_TYPES:
        if source[node.end_byte : position].strip():
            break
        run.insert(0, node)
        position = node.start_byte
        node = node.prev_sibling
    return run


def _anchor(function: tree_sitter.Node, language: str) -> list[tree_sitter.Node]:
    """The nodes a doc comment may sit right before: the outer node, and for decorated class
    members also the first decorator."""
    anchor = outer_node(function, language)
    anchors = [anchor]
    previous = anchor.prev_named_sibling
    while previous is not None and kind(previous) == "decorator":
        anchors.append(previous)
        previous = previous.prev_named_sibling
    return anchors


def _block_comment(node: tree_sitter.Node, language: str) -> str | None:
    raw = text(node)
    openers = BLOCK_OPENERS.get(language, ("/**",))
    if not raw.startswith(openers) or raw.startswith("/**/") or not raw.endswith("*/"):
        return None
    lines = raw[3:-2].splitlines()
    cleaned = [re.sub(r"^\s*\*?", "", line, count=1) for line in lines]
    return "\n".join(cleaned).strip("\n")


def _line_comments(run: list[tree_sitter.Node], language: str) -> list[tree_sitter.Node]:
    """The trailing ``///`` lines of a comment run."""
    openers = LINE_OPENERS.get(language, ())
    lines: list[tree_sitter.Node] = []
    for node in reversed(run):
        raw = text(node)
        if not raw.startswith(openers) or raw.startswith("////") or "\n" in raw.strip():
            break
        lines.insert(0, node)
    return lines


def find_doc(function: tree_sitter.Node, language: str, source: bytes) -> DocComment | None:
    """The doc comment of ``function`` in its language's convention, or ``None``."""
    styles = STYLES[language]
    if "docstring" in styles:
        statement = _python_docstring(function)
        if statement is None:
            return None
        return DocComment(
            statement.start_byte, statement.end_byte, _string_value(statement), "docstring"
        )
    for anchor in _anchor(function, language):
        run = _comments_before(anchor, source)
        if not run:
            continue
        if "block" in styles:
            content = _block_comment(run[-1], language)
            if content is not None:
                return DocComment(run[-1].start_byte, run[-1].end_byte, content, "block")
        if "lines" in styles:
            lines = _line_comments(run, language)
            if lines:
                content = "\n".join(re.sub(r"^//[/!] ?", "", text(n)) for n in lines)
                return DocComment(lines[0].start_byte, lines[-1].end_byte, content, "lines")
    return None


# -- reading ---------------------------------------------------------------------------------

TAG_LINE = re.compile(r"^\s*[@\\](\w+)(.*)$")
PARAM_TAGS = frozenset({"param", "arg", "argument", "tparam"})
RETURN_TAGS = frozenset({"return", "returns", "retval", "result", "yield", "yields"})
DESCRIPTION_TAGS = frozenset({"brief", "short", "details", "description", "desc", "summary"})
PARAM_NAME = re.compile(
    r"^(?:\[[a-z, ]*\])?\s*(?:\{[^}]*\}\s*)?\[?\s*(?:\.\.\.)?([A-Za-z_$][\w$]*)", re.I
)


def _tagged_facts(content: str) -> DocFacts:
    """JSDoc, TSDoc, Javadoc and Doxygen: free text first, then ``@tag`` (or ``\\tag``) lines."""
    description = False
    params: list[str] = []
    returns = False
    seen_tag = False
    for line in content.splitlines():
        match = TAG_LINE.match(line)
        if match is None:
            if not seen_tag and re.search(r"\w\w", line.replace("{@inheritDoc}", "")):
                description = True
            continue
        seen_tag = True
        tag, rest = match.group(1).lower(), match.group(2).strip()
        if tag in DESCRIPTION_TAGS and re.search(r"\w\w", rest):
            description = True
        elif tag in PARAM_TAGS:
            name = PARAM_NAME.match(rest)
            if name and not rest.startswith("<"):
                params.append(name.group(1))
        elif tag in RETURN_TAGS and rest:
            returns = True
    return DocFacts(description, frozenset(params), len(params), returns)


def _xml_facts(content: str) -> DocFacts:
    """C# XML documentation: ``<summary>``, ``<param name="...">``, ``<returns>``."""
    try:
        root = ElementTree.fromstring(f"<doc>{content}</doc>")
    except ElementTree.ParseError:
        return _loose_xml_facts(content)

    def has_text(element: ElementTree.Element | None) -> bool:
        return element is not None and bool(re.search(r"\w\w", "".join(element.itertext())))

    names = [p.get("name", "") for p in root.iter("param") if p.get("name")]
    return DocFacts(
        has_text(root.find("summary")),
        frozenset(names),
        len(names),
        has_text(root.find("returns")),
    )


def _loose_xml_facts(content: str) -> DocFacts:
    """C# XML documentation that is not well-formed (a bare ``<`` or ``&`` in the text): the
    same three facts read by pattern."""

    def has_text(tag: str) -> bool:
        match = re.search(rf"<{tag}\b[^>]*>(.*?)</{tag}\s*>", content, re.S)
        return match is not None and bool(
            re.search(r"\w\w", re.sub(r"<[^>]*>", "", match.group(1)))
        )

    names = re.findall(r"<param\s+name\s*=\s*[\"']([^\"']+)[\"']", content)
    return DocFacts(has_text("summary"), frozenset(names), len(names), has_text("returns"))


SECTION = re.compile(
    r"^(args|arguments|parameters|params|keyword args|keyword arguments|other parameters"
    r"|returns?|yields?|raises|attributes|examples?|notes?|see also|warnings?)\s*:?\s*$",
    re.I,
)
PARAM_SECTIONS = ("arg", "param", "keyword", "other param")
FIELD = re.compile(r"^\s*[:@](\w+)(?:\s+([^:]*?))?\s*:")
ENTRY = re.compile(r"^\s*\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*(?::|$)")


def _docstring_facts(content: str) -> DocFacts:
    """Python docstrings: reST / Sphinx fields, Epydoc, Google and NumPy sections."""
    lines = content.splitlines()
    description = False
    params: list[str] = []
    returns = False
    section: str | None = None
    entry_indent: int | None = None
    for index, line in enumerate(lines):
        stripped = line.strip()
        underline = index + 1 < len(lines) and re.fullmatch(r"-{3,}", lines[index + 1].strip())
        if SECTION.match(stripped) and (stripped.endswith(":") or underline):
            section, entry_indent = stripped.rstrip(":").lower(), None
            if section.startswith(("return", "yield")):
                returns = True
            continue
        if re.fullmatch(r"-{3,}", stripped) or not stripped:
            continue
        field = FIELD.match(line)
        if field:
            tag, rest = field.group(1).lower(), (field.group(2) or "").split()
            if tag in ("param", "parameter", "arg", "argument", "key", "keyword") and rest:
                params.append(rest[-1].lstrip("*"))
            elif tag in ("return", "returns", "rtype", "yield", "yields"):
                returns = True
            section = "fields"
            continue
        if section is None:
            if re.search(r"\w\w", stripped):
                description = True
            continue
        if section.startswith(PARAM_SECTIONS):
            indent = len(line) - len(line.lstrip())
            if entry_indent is None:
                entry_indent = indent
            if indent == entry_indent:
                entry = ENTRY.match(line)
                if entry:
                    names = re.findall(r"\*{0,2}(\w+)", line.split(":")[0].split("(")[0])
                    params.extend(names)
    return DocFacts(description, frozenset(params), len(params), returns)


def read_doc(doc: DocComment, language: str) -> DocFacts:
    """What ``doc`` says, read by its language's convention."""
    if doc.style == "docstring":
        return _docstring_facts(doc.content)
    if language == "csharp":
        return _xml_facts(doc.content)
    return _tagged_facts(doc.content)
