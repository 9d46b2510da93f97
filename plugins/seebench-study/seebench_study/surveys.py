"""Survey answers checked against their item: the server stores only answers the item allows.

An item (``surveys.pre``/``surveys.post`` of the study YAML) is a ``scale`` (an integer in
``[min, max]``), a ``choice`` (one of ``options``) or ``text`` (at most :data:`MAX_TEXT`
characters). ``screen`` lists the answers that keep a participant in the analysis.
"""

from __future__ import annotations

from typing import Any

MAX_TEXT = 5000


def answer_problem(item: dict[str, Any], answer: Any) -> str | None:
    """Why ``answer`` does not fit ``item``, or ``None`` when it does."""
    kind = item["kind"]
    if kind == "scale":
        if not isinstance(answer, int) or isinstance(answer, bool):
            return f"item {item['id']!r} takes an integer"
        if not item["min"] <= answer <= item["max"]:
            return f"item {item['id']!r} takes {item['min']}..{item['max']}, not {answer}"
        return None
    if kind == "choice":
        if answer not in item["options"]:
            return f"item {item['id']!r} takes one of its options, not {str(answer)[:60]!r}"
        return None
    if not isinstance(answer, str) or not answer.strip():
        return f"item {item['id']!r} takes non-empty text"
    if len(answer) > MAX_TEXT:
        return f"item {item['id']!r} takes at most {MAX_TEXT} characters"
    return None
