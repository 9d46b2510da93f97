"""A code answer: the code in a model's reply (one fenced block, or the whole reply).

A kernel notion shared by every suite whose answers are programs (codegen, Copilot's
generate and test scenarios); the scorer that runs them is :mod:`seebench.scoring.python_tests`.
"""

from __future__ import annotations

import re

from seebench.tasks.types import ParsedAnswer

#: A fenced code block: an opening fence with an optional language, the code, a closing fence.
FENCE = re.compile(r"^```[ \t]*([A-Za-z0-9_+.-]*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
OPENING_FENCE = re.compile(r"^```", re.M)
#: A bare fence (no language) with nothing but blank lines after it: a block's end.
TRAILING_BARE_FENCE = re.compile(r"^```[ \t]*\s*\Z", re.M)
UNCLOSED = "unclosed code block (reply cut off?)"
UNOPENED = "closing ``` without an opening fence"
CODE_LANGUAGES = ("", "python", "py", "python3")


def parse_code_reply(
    text: str, languages: tuple[str, ...] = CODE_LANGUAGES, expected: str = "python"
) -> ParsedAnswer:
    """The code in a model's reply: the content of its one fenced block, or the whole reply
    when it has no fence. Several blocks, a block whose fence names none of ``languages`` (the
    language is ``expected``) or an unclosed fence are errors (never a guess)."""
    if not text.strip():
        return ParsedAnswer(None, "empty reply")
    blocks = FENCE.findall(text)
    fences = len(OPENING_FENCE.findall(text))
    if not blocks:
        if fences:
            return ParsedAnswer(None, _lone_fence_reason(text, fences))
        return ParsedAnswer(text)
    if fences != 2 * len(blocks):
        return ParsedAnswer(None, UNCLOSED)
    if len(blocks) > 1:
        return ParsedAnswer(None, f"{len(blocks)} code blocks; expected one")
    language, code = blocks[0]
    if language.lower() not in languages:
        return ParsedAnswer(None, f"code block in {language!r}; expected {expected}")
    if not code.strip():
        return ParsedAnswer(None, "empty code block")
    return ParsedAnswer(code)


def _lone_fence_reason(text: str, fences: int) -> str:
    """Why fences that pair into no block are invalid: a reply that ends in a bare fence with
    code before it closed a block it never opened; any other lone fence was never closed."""
    if fences == 1 and TRAILING_BARE_FENCE.search(text) and text.lstrip()[:3] != "```":
        return UNOPENED
    return UNCLOSED
