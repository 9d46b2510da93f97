"""Reading a task's answer out of a model's reply; an unreadable reply is an error, never a guess.

Classification replies are matched against label names, their raw data values and the
``synonyms`` of each label in the task YAML, ignoring case, surrounding whitespace, quotes,
Markdown emphasis and a leading ``Label:``-style prefix. A reply is read as a label when it is
one, when it starts with one (``"No, because ..."``), or when exactly one label is mentioned in
it; replies that mention several labels, or none, are invalid. Multi-label replies are lists
(commas, semicolons, new lines, "and"; ``none`` for the empty set) whose every item must be a
label. Regression replies must contain a number inside the task's ``value_range``.
"""

from __future__ import annotations

import math
import re

from seebench.tasks.spec import TaskSpec
from seebench.tasks.types import ParsedAnswer

#: the answer that names no label (a multi-label task's empty set); prompts ask for it
NO_LABELS = "none"

_PREFIX = re.compile(
    r"^(?:the\s+)?(?:final\s+)?(?:answer|labels?|class(?:es)?|categor(?:y|ies)|value|"
    r"estimate|prediction|output)\s*(?:is|are)?\s*[:=\-]?\s*",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_LIST_SPLIT = re.compile(r"\s*(?:,|;|\n|\||&|\band\b)\s*", re.IGNORECASE)
_EMPTY_ANSWERS = {NO_LABELS, "none of them", "no label", "no labels", "nothing", "[]", "n/a", "-"}


def normalise(text: str) -> str:
    """Lower case, single spaces, without quotes, Markdown marks or a trailing full stop."""
    text = " ".join(str(text).replace("*", " ").replace("`", " ").split()).lower()
    text = _PREFIX.sub("", text, count=1) if _PREFIX.match(text) else text
    return text.strip(" \t\"'“”‘’.!:[](){}<>")


def label_aliases(task: TaskSpec) -> dict[str, str]:
    """Every accepted spelling (normalised) of each label, mapped to the label's name."""
    aliases: dict[str, str] = {}
    for label in task.labels:
        for alias in (label.name, label.raw_value, *label.synonyms):
            key = normalise(
                str(int(alias) if isinstance(alias, float) and alias.is_integer() else alias)
            )
            if key:
                aliases.setdefault(key, label.name)
    return aliases


def _mention(alias: str) -> re.Pattern[str]:
    # a hyphen counts as part of a word, so "functional" is not found in "non-functional"
    return re.compile(rf"(?<![\w-]){re.escape(alias)}(?![\w-])")


def parse_label(task: TaskSpec, text: str) -> ParsedAnswer:
    aliases = label_aliases(task)
    reply = normalise(text)
    if not reply:
        return ParsedAnswer(None, "empty reply")
    if reply in aliases:
        return ParsedAnswer(aliases[reply])
    first_line = normalise(str(text).strip().splitlines()[0])
    if first_line in aliases:
        return ParsedAnswer(aliases[first_line])
    by_length = sorted(aliases, key=len, reverse=True)
    for alias in by_length:  # the reply starts with a label: "no, because ..."
        if _mention(alias).match(reply):
            return ParsedAnswer(aliases[alias])
    mentioned = {aliases[a] for a in by_length if _mention(a).search(reply)}
    if len(mentioned) == 1:
        return ParsedAnswer(mentioned.pop())
    if mentioned:
        names = ", ".join(sorted(mentioned, key=task.label_names.index))
        return ParsedAnswer(None, f"ambiguous reply: mentions {names}")
    return ParsedAnswer(None, "no label in reply")


def parse_label_list(task: TaskSpec, text: str) -> ParsedAnswer:
    aliases = label_aliases(task)
    reply = normalise(str(text).replace("\n", ", "))
    if not reply:
        return ParsedAnswer(None, "empty reply")
    if reply in _EMPTY_ANSWERS:
        return ParsedAnswer([])
    found: list[str] = []
    rest = reply
    for alias in sorted(
        aliases, key=len, reverse=True
    ):  # longest first: "non-functional" before "functional"
        pattern = _mention(alias)
        if pattern.search(rest):
            found.append(aliases[alias])
            rest = pattern.sub(",", rest)
    leftovers = [normalise(p) for p in _LIST_SPLIT.split(rest)]
    unknown = [p for p in leftovers if p and p not in _EMPTY_ANSWERS]
    if unknown:
        shown = ", ".join(repr(u[:40]) for u in unknown[:3])
        return ParsedAnswer(None, f"not a label: {shown}")
    return ParsedAnswer(sorted(set(found), key=task.label_names.index))


def parse_number(task: TaskSpec, text: str) -> ParsedAnswer:
    match = _NUMBER.search(
        str(text).replace(",", "") if re.search(r"\d,\d{3}\b", str(text)) else str(text)
    )
    if match is None:
        return ParsedAnswer(None, "no number in reply")
    value = float(match.group())
    if not math.isfinite(value):
        return ParsedAnswer(None, "number is not finite")
    value_range = task.value_range
    if value_range and not value_range[0] <= value <= value_range[1]:
        return ParsedAnswer(
            None, f"out of range: {value:g} not in [{value_range[0]:g}, {value_range[1]:g}]"
        )
    return ParsedAnswer(value)


def parse_answer(task: TaskSpec, text: str | None) -> ParsedAnswer:
    """Read the answer of ``task``'s type from a reply (the type decides how)."""
    if text is None:
        return ParsedAnswer(None, "no reply")
    return task.behaviour.parse_answer(task, text)
