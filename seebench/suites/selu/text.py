"""SELU text cleaning (paper §III-B, §VII-B): mask code, URLs, hashes and mentions, strip
Markdown / HTML / Jira markup, normalise whitespace.

Order matters: code blocks are masked first (a URL inside code must not become ``[URL]``),
then links and URLs, then hashes and mentions, then markup is stripped and whitespace
collapsed. The placeholders are plain bracketed words so that every tokenizer keeps them.
"""

from __future__ import annotations

import html
import re
from typing import Any

CODE = "[CODE]"
URL = "[URL]"
HASH = "[HASH]"
USER = "[USER]"

_FLAGS = re.IGNORECASE | re.DOTALL

# Code blocks: Markdown fences, Jira {code}/{noformat}, HTML <pre>, and 4-space indented blocks.
_FENCED = re.compile(r"(```|~~~).*?(\1|\Z)", re.DOTALL)
_JIRA_CODE = re.compile(r"\{(code|noformat)(:[^}]*)?\}.*?(\{\1\}|\Z)", _FLAGS)
_HTML_PRE = re.compile(r"<pre\b[^>]*>.*?(</pre>|\Z)", _FLAGS)
_INDENTED = re.compile(r"(?:(?:^|\n)(?: {4}|\t)[^\n]*){2,}")

# Links: keep the visible text, mask the target.
_MD_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_MD_LINK = re.compile(r"\[([^\]]+)\]\((?:[^()]|\([^)]*\))*\)")
_JIRA_LINK = re.compile(r"\[([^\]|\n]+)\|[^\]\n]+\]")
_JIRA_MENTION = re.compile(r"\[~[^\]\s]+\]")
_HTML_LINK = re.compile(r"<a\b[^>]*>(.*?)</a>", _FLAGS)
_URL = re.compile(
    r"(?:\b(?:https?|ftp|file)://|\bwww\.)[^\s<>\"'`)\]]*[^\s<>\"'`)\].,;:!?]", re.IGNORECASE
)

_HASH = re.compile(r"\b[0-9a-fA-F]{40}\b")
_MENTION = re.compile(r"(?<![\w.@/])@([A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)(?![\w@.(]*\()")
#: Javadoc / annotation words after "@" that are not user mentions.
DOC_TAGS = frozenset(
    {
        "author",
        "code",
        "deprecated",
        "docroot",
        "exception",
        "inheritdoc",
        "link",
        "linkplain",
        "literal",
        "param",
        "return",
        "returns",
        "see",
        "serial",
        "serialdata",
        "serialfield",
        "since",
        "throws",
        "value",
        "version",
        "override",
        "suppresswarnings",
        "functionalinterface",
        "safevarargs",
        "todo",
        "fixme",
        "note",
        "example",
        "type",
        "rtype",
        "raises",
        "staticmethod",
        "classmethod",
        "property",
        "abstractmethod",
        "dataclass",
    }
)

# Markup.
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_HTML_BREAK = re.compile(r"<\s*(br|/p|/div|/li|/h[1-6]|/tr)\b[^>]*>", re.IGNORECASE)
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_MD_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+", re.MULTILINE)
_MD_QUOTE = re.compile(r"^\s{0,3}>\s?", re.MULTILINE)
_MD_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+", re.MULTILINE)
_MD_RULE = re.compile(r"^\s*(?:[-*_=]\s*){3,}$", re.MULTILINE)
_MD_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_MD_EM = re.compile(r"(?<![\w*])([*_])(?=\S)([^*_\n]+?)(?<=\S)\1(?![\w*])")
_MD_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_INLINE_CODE = re.compile(r"`+([^`\n]+?)`+")
_JIRA_HEADING = re.compile(r"^\s*(?:h[1-6]|bq)\.\s+", re.MULTILINE)
_JIRA_BRACES = re.compile(
    r"\{(?:color(?::[^}]*)?|quote|panel(?::[^}]*)?|noformat)\}", re.IGNORECASE
)
_JIRA_STRONG = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])")
_JIRA_MONO = re.compile(r"\{\{(.+?)\}\}")
_JIRA_TABLE = re.compile(r"\|\|")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~>])")
_EXCEL_CR = re.compile(r"_x000[dD]_")
_WHITESPACE = re.compile(r"\s+")


def mask_code(text: str) -> str:
    """Replace code blocks (Markdown fences, Jira ``{code}``/``{noformat}``, HTML ``<pre>``,
    indented blocks of two or more lines) by ``[CODE]``."""
    if "```" in text or "~~~" in text:
        text = _FENCED.sub(f" {CODE} ", text)
    if "{" in text:
        text = _JIRA_CODE.sub(f" {CODE} ", text)
    if "<" in text:
        text = _HTML_PRE.sub(f" {CODE} ", text)
    if "\n    " in text or "\n\t" in text:
        text = _INDENTED.sub(f"\n{CODE}\n", text)
    return text


def mask_links(text: str) -> str:
    """Keep the text of Markdown / Jira / HTML links and replace bare URLs by ``[URL]``."""
    if "[" in text:
        text = _MD_IMAGE.sub(lambda m: m.group(1) or URL, text)
        text = _MD_LINK.sub(r"\1", text)
        text = _JIRA_MENTION.sub(USER, text)
        text = _JIRA_LINK.sub(r"\1", text)
    if "<" in text:
        text = _HTML_LINK.sub(r"\1", text)
    return _URL.sub(URL, text) if ("://" in text or "www." in text.lower()) else text


def mask_identifiers(text: str) -> str:
    """Replace 40-hex commit hashes by ``[HASH]`` and @mentions by ``[USER]``."""
    text = _HASH.sub(HASH, text)
    if "@" not in text:
        return text
    return _MENTION.sub(lambda m: m.group(0) if m.group(1).lower() in DOC_TAGS else USER, text)


def strip_markup(text: str) -> str:
    """Remove HTML tags and entities, Markdown and Jira styling; keep the words."""
    if "\\" in text:
        text = _MD_ESCAPE.sub(r"\1", text)
    if "<" in text:
        text = _HTML_COMMENT.sub(" ", text)
        text = _HTML_BREAK.sub("\n", text)
        text = _HTML_TAG.sub(" ", text)
    if "&" in text:
        text = html.unescape(text)
    text = _MD_RULE.sub(" ", text)
    text = _MD_HEADING.sub("", text)
    text = _JIRA_HEADING.sub("", text)
    text = _MD_QUOTE.sub("", text)
    text = _MD_BULLET.sub("", text)
    if "{" in text:
        text = _JIRA_BRACES.sub(" ", text)
        text = _JIRA_MONO.sub(r"\1", text)
    text = _JIRA_TABLE.sub("|", text)
    if "`" in text:
        text = _INLINE_CODE.sub(r"\1", text)
    if "*" in text or "_" in text or "~" in text:
        text = _MD_STRONG.sub(r"\2", text)
        text = _MD_STRIKE.sub(r"\1", text)
        text = _MD_EM.sub(r"\2", text)
        text = _JIRA_STRONG.sub(r"\1", text)
    return text


def normalise_whitespace(text: str) -> str:
    """Collapse every run of whitespace (newlines, tabs, Excel's ``_x000D_``) to one space."""
    return _WHITESPACE.sub(" ", _EXCEL_CR.sub(" ", text)).strip()


def clean_text(text: Any) -> str:
    """The whole SELU cleaning pipeline for one text; ``None`` becomes ``""``."""
    if text is None:
        return ""
    text = _EXCEL_CR.sub("\n", str(text)).replace("\r\n", "\n").replace("\r", "\n")
    text = mask_code(text)
    text = mask_links(text)
    text = mask_identifiers(text)
    text = strip_markup(text)
    return normalise_whitespace(text)


def clean_columns(
    rows: list[dict[str, Any]], *, columns: list[str], strip: str = ""
) -> list[dict[str, Any]]:
    """Apply SELU's text cleaning (mask code, URLs, hashes, mentions; strip Markdown, HTML and
    Jira markup; normalise whitespace) to ``columns`` of every row. ``strip`` lists
    characters removed from both ends first (quoting debris of some upstream CSVs)."""
    for row in rows:
        for column in columns:
            if column not in row:
                raise KeyError(f"column {column!r} not found; columns are {sorted(row)}")
            value = row[column]
            if strip and isinstance(value, str):
                value = value.strip().strip(strip)
            row[column] = clean_text(value)
    return rows
