"""Reading scores and verdicts out of judge replies, without guessing.

Each reply is matched against named rules in priority order; the last match of the first rule
that matches wins, and the rule's name is kept with the result. There is no "last number in the
reply" fallback: a reply that matches no rule, or whose score lies outside the scale (or is
given out of another denominator), is **unscored** with a reason. The study's post-processing
did guess, which is how its released files hold scores such as 29 on a 1-10 scale and -1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NUMBER = r"(?P<value>\d+(?:\.\d+)?)"
OUT_OF = r"(?:\s*/\s*(?P<denominator>\d+))?"

#: Score rules in priority order: (name, pattern). Matched case-insensitively.
SCORE_RULES: tuple[tuple[str, str], ...] = (
    ("overall", rf"\boverall(?:\s+score)?\s*[:=]\s*{NUMBER}{OUT_OF}"),
    ("result_tag", rf"\[RESULT\]\s*{NUMBER}{OUT_OF}"),
    ("double_bracket", rf"\[\[\s*{NUMBER}\s*\]\]"),
    ("rating", rf"\brating\s*[:=]\s*{NUMBER}{OUT_OF}"),
    ("score", rf"\bscore\s*[:=]\s*{NUMBER}{OUT_OF}"),
)

# A and B must be capital letters, so "Overall: a tie" is a tie and not A.
_CHOICE = (
    r"(?:(?:an?|the)\s+)?"
    r"(?P<choice>(?-i:A|B)(?![\w-])|tie\b|first\b|second\b|response\s*[12]\b)"
)
#: Verdict rules in priority order. A bare "tie" elsewhere in the reply (as in "properties") is
#: never read as a verdict.
VERDICT_RULES: tuple[tuple[str, str], ...] = (
    ("overall", rf"\boverall(?:\s+verdict)?\s*[:=]\s*{_CHOICE}"),
    ("verdict", rf"\bverdict\s*[:=]\s*{_CHOICE}"),
    ("result_tag", rf"\[RESULT\]\s*{_CHOICE}"),
    ("double_bracket", rf"\[\[\s*{_CHOICE}\s*\]\]"),
    ("final_decision", rf"\bfinal\s+decision\s+is\s*:?\s*{_CHOICE}"),
)

_CHOICE_VALUE = {
    "a": 1,
    "first": 1,
    "response1": 1,
    "b": -1,
    "second": -1,
    "response2": -1,
    "tie": 0,
}


@dataclass(frozen=True)
class ParsedScore:
    """A score read from a reply: ``value`` is ``None`` when the reply is unscored."""

    value: float | None
    rule: str | None
    reason: str | None = None
    matched: str | None = None

    @property
    def scored(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class ParsedVerdict:
    """A pairwise verdict: 1 (first/A better), -1 (second/B better), 0 (tie) or ``None``."""

    value: int | None
    rule: str | None
    reason: str | None = None
    matched: str | None = None

    @property
    def scored(self) -> bool:
        return self.value is not None


def _clean(text: str) -> str:
    """Drop Markdown emphasis and code marks, which models put around the answer line."""
    return text.replace("*", "").replace("`", "").replace("_", " ")


def parse_score(
    text: str | None, scale: tuple[float, float] = (1.0, 5.0), *, integer: bool = False
) -> ParsedScore:
    """Read a score on ``scale`` from a judge reply; unscored (with a reason) if it has none."""
    if not text or not text.strip():
        return ParsedScore(None, None, "empty reply")
    cleaned = _clean(text)
    low, high = scale
    for name, pattern in SCORE_RULES:
        matches = list(re.finditer(pattern, cleaned, flags=re.IGNORECASE))
        if not matches:
            continue
        match = matches[-1]
        value = float(match.group("value"))
        denominator = match.groupdict().get("denominator")
        if denominator is not None and float(denominator) != high:
            return ParsedScore(None, name, f"score out of {denominator}, not {high:g}", match[0])
        if not low <= value <= high:
            return ParsedScore(None, name, f"{value:g} is outside {low:g}-{high:g}", match[0])
        if integer and not value.is_integer():
            return ParsedScore(None, name, f"{value:g} is not an integer", match[0])
        return ParsedScore(value, name, None, match[0])
    return ParsedScore(None, None, "no score in the expected format")


def parse_verdict(text: str | None) -> ParsedVerdict:
    """Read a pairwise verdict (A/first, B/second or tie) from a judge reply."""
    if not text or not text.strip():
        return ParsedVerdict(None, None, "empty reply")
    cleaned = _clean(text)
    for name, pattern in VERDICT_RULES:
        matches = list(re.finditer(pattern, cleaned, flags=re.IGNORECASE))
        if not matches:
            continue
        match = matches[-1]
        key = re.sub(r"\s+", "", match.group("choice")).lower()
        return ParsedVerdict(_CHOICE_VALUE[key], name, None, match[0])
    return ParsedVerdict(None, None, "no verdict in the expected format")


def parse_batch_scores(
    text: str | None, count: int, scale: tuple[float, float] = (1.0, 5.0)
) -> list[ParsedScore]:
    """Scores of a batch reply with lines ``Response k: X`` (k = 1..count), one per response.

    A response whose line is missing, repeated with different values, or out of scale is
    unscored; the others keep their scores.
    """
    if not text or not text.strip():
        return [ParsedScore(None, None, "empty reply")] * count
    cleaned = _clean(text)
    found: dict[int, list[re.Match[str]]] = {}
    pattern = rf"\bresponse\s*#?\s*(?P<position>\d+)\s*[:=-]\s*{NUMBER}{OUT_OF}"
    for match in re.finditer(pattern, cleaned, flags=re.IGNORECASE):
        found.setdefault(int(match.group("position")), []).append(match)
    low, high = scale
    results: list[ParsedScore] = []
    for position in range(1, count + 1):
        matches = found.get(position, [])
        values = {float(m.group("value")) for m in matches}
        if not matches:
            results.append(ParsedScore(None, None, f"no score for response {position}"))
        elif len(values) > 1:
            shown = ", ".join(f"{v:g}" for v in sorted(values))
            results.append(ParsedScore(None, "batch_line", f"conflicting scores {shown}"))
        else:
            value = values.pop()
            if low <= value <= high:
                results.append(ParsedScore(value, "batch_line", None, matches[-1][0]))
            else:
                reason = f"{value:g} is outside {low:g}-{high:g}"
                results.append(ParsedScore(None, "batch_line", reason, matches[-1][0]))
    return results
