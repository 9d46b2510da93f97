"""Autocomplete suggestions: what was requested, shown, accepted, kept and typed out.

A suggestion is joined across its events by ``request_id``. Beyond the paper's acceptance rate
this module measures the *survival* of accepted suggestions in the task's final code and the
*typed-out acceptances*: suggestions that were not accepted but whose text the participant
typed in themselves soon after (``docs/study_analysis.md`` gives the exact definitions).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from seebench_study.analysis.attempts import CODE_EVENTS, Attempt
from seebench_study.analysis.events import event_time

#: A suggestion counts as typed out only if its text has at least this many non-blank characters.
TYPED_OUT_MIN_CHARS = 8
#: ... and it appears in a code state recorded within this many seconds after it was shown.
TYPED_OUT_WINDOW_S = 60.0


@dataclass
class Suggestion:
    """One suggestion request and what became of it."""

    session: str
    task: str
    request_id: str
    trigger: str | None = None  # auto | hotkey
    prefix: str = ""
    suffix: str = ""
    max_tokens: int | None = None
    text: str | None = None  # the suggestion shown (None: never shown)
    shown_at: float | None = None
    accepted: bool = False
    accepted_at: float | None = None
    rejected_reason: str | None = None
    survival: float | None = None  # accepted only: share of its lines in the final code
    typed_out: bool = False  # not accepted, yet typed in

    @property
    def shown(self) -> bool:
        return self.text is not None

    @property
    def requested(self) -> bool:
        """Whether the participant asked for it (hotkey) rather than the pause triggering it."""
        return self.trigger == "hotkey"


def attempt_suggestions(attempt: Attempt) -> list[Suggestion]:
    """The suggestions of one attempt, with survival and typed-out flags filled in."""
    found: dict[str, Suggestion] = {}
    for event in attempt.events:
        data = event["data"]
        request_id = data.get("request_id")
        if not isinstance(request_id, str) or not event["type"].startswith("suggestion_"):
            continue
        item = found.setdefault(request_id, Suggestion(attempt.session, attempt.task, request_id))
        kind = event["type"]
        if kind == "suggestion_requested":
            item.trigger = data.get("trigger") if isinstance(data.get("trigger"), str) else None
            item.prefix = _text(data.get("prefix"))
            item.suffix = _text(data.get("suffix"))
            item.max_tokens = (
                data.get("max_tokens") if isinstance(data.get("max_tokens"), int) else None
            )
        elif kind == "suggestion_shown" and isinstance(data.get("suggestion"), str):
            item.text, item.shown_at = data["suggestion"], event_time(event)
        elif kind == "suggestion_accepted":
            item.accepted, item.accepted_at = True, event_time(event)
            if item.text is None and isinstance(data.get("suggestion"), str):
                item.text = data["suggestion"]
        elif kind == "suggestion_rejected":
            item.rejected_reason = (
                data.get("reason") if isinstance(data.get("reason"), str) else None
            )
    final = attempt.final_code
    code_states = [
        (event_time(e), e["data"]["code"])
        for e in attempt.of_type(*CODE_EVENTS)
        if isinstance(e["data"].get("code"), str)
    ]
    accepted = [(s.accepted_at, _squash(s.text)) for s in found.values() if s.accepted and s.text]
    for item in found.values():
        if item.accepted and item.text is not None and final is not None:
            item.survival = line_survival(item.text, final)
        elif item.shown and not item.accepted:
            # dismissed, asked for again and then accepted with Tab: not typed out by hand
            later = any(
                at is not None
                and item.shown_at is not None
                and item.shown_at < at <= item.shown_at + TYPED_OUT_WINDOW_S
                and text == _squash(item.text or "")
                for at, text in accepted
            )
            item.typed_out = not later and is_typed_out(item, code_states)
    return list(found.values())


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def line_survival(suggestion: str, final_code: str) -> float | None:
    """Share of the suggestion's non-blank lines (stripped) found as lines of the final code.

    ``None`` for a suggestion with no non-blank line.
    """
    lines = _lines(suggestion)
    if not lines:
        return None
    final = set(_lines(final_code))
    return sum(line in final for line in lines) / len(lines)


def _squash(text: str) -> str:
    return "".join(text.split())


def is_typed_out(item: Suggestion, code_states: list[tuple[float, str]]) -> bool:
    """Whether a shown, unaccepted suggestion was typed in by hand.

    True when its text without whitespace has at least :data:`TYPED_OUT_MIN_CHARS` characters,
    was not already in the code around the cursor (prefix + suffix without whitespace), and
    appears in a code state (snapshot, run or submit) recorded within
    :data:`TYPED_OUT_WINDOW_S` seconds after it was shown.
    """
    needle = _squash(item.text or "")
    if len(needle) < TYPED_OUT_MIN_CHARS or item.shown_at is None:
        return False
    if needle in _squash(item.prefix + item.suffix):
        return False
    end = item.shown_at + TYPED_OUT_WINDOW_S
    return any(item.shown_at < t <= end and needle in _squash(code) for t, code in code_states)
