"""Reasoning ("thinking") models: splitting a reply into its reasoning and its answer.

The model option ``think_end`` names the marker that ends the reasoning part
(``-o think_end='</think>'``), or is ``auto`` to accept any of :data:`KNOWN_END_MARKERS`.
The reasoning (everything before the first end marker, without a leading start marker) is
kept apart; only the answer after the marker is parsed, so answer extraction and any
truncation of the answer never look inside the reasoning.

A reply without the end marker is *cut off before its answer* (typically the reasoning used up
``max_new_tokens``): it becomes an invalid answer with that reason, counted apart from parse
failures. With ``auto``, a reply that has no marker at all and does not start with a known
start marker is taken as a plain answer (a model that did not think); a reply that starts
with a start marker but never ends it is cut off.
"""

from __future__ import annotations

from dataclasses import dataclass

#: End-of-reasoning markers of common open reasoning models, with their start markers.
KNOWN_MARKERS: dict[str, str] = {
    "</think>": "<think>",  # DeepSeek-R1, Qwen3, QwQ, SmolLM3, Phi-4-reasoning
    "</thinking>": "<thinking>",
    "<|end_of_thought|>": "<|begin_of_thought|>",  # Sky-T1 / OpenThinker style
    "[/THINK]": "[THINK]",  # Magistral
    "<|END_THINKING|>": "<|START_THINKING|>",  # Command A reasoning
    "◁/think▷": "◁think▷",  # Kimi
}
KNOWN_END_MARKERS = tuple(KNOWN_MARKERS)
#: ``max_new_tokens`` of a reasoning model unless ``-o max_new_tokens`` says otherwise (a
#: task's answer budget, a few tokens for a label, leaves no room to think).
REASONING_MAX_NEW_TOKENS = 4096
#: Reason of an invalid answer whose reply ended inside its reasoning.
CUT_OFF_REASON = "reasoning cut off before the answer"
#: JSON Schema of the ``think_end`` option.
THINK_END_OPTION = {
    "type": "string",
    "minLength": 1,
    "description": "the end-of-reasoning marker, e.g. </think>, or auto for the known ones",
}


@dataclass(frozen=True)
class SplitReply:
    """A reply split at its end-of-reasoning marker (``answer`` is ``None`` when cut off)."""

    reasoning: str | None
    answer: str | None
    marker: str | None = None

    @property
    def cut_off(self) -> bool:
        """Whether the reply ended before its answer."""
        return self.answer is None


def end_markers(option: str) -> tuple[str, ...]:
    """The markers ``think_end=option`` accepts."""
    return KNOWN_END_MARKERS if option == "auto" else (option,)


def split_reasoning(text: str, option: str) -> SplitReply:
    """Split ``text`` at the first end marker that ``think_end=option`` accepts."""
    found = [(text.find(m), m) for m in end_markers(option) if m in text]
    if found:
        position, marker = min(found)
        reasoning = text[:position].strip()
        start = KNOWN_MARKERS.get(marker)
        if start and reasoning.startswith(start):
            reasoning = reasoning[len(start) :].strip()
        return SplitReply(reasoning, text[position + len(marker) :].strip(), marker)
    starts = [s for e, s in KNOWN_MARKERS.items() if e in end_markers(option)]
    if option == "auto" and not any(text.lstrip().startswith(s) for s in starts):
        return SplitReply(None, text)  # no reasoning at all
    reasoning = text.strip()
    for start in starts:
        if reasoning.startswith(start):
            reasoning = reasoning[len(start) :].strip()
    return SplitReply(reasoning, None)


def cut_off_reason(option: str, max_new_tokens: int | None = None) -> str:
    """The invalid-answer reason of a cut-off reply."""
    marker = "a known end-of-reasoning marker" if option == "auto" else repr(option)
    within = f" within {max_new_tokens} new tokens" if max_new_tokens else ""
    return f"{CUT_OFF_REASON}: no {marker}{within}"


def split_tokens(completion_tokens: int, reasoning: str | None, answer: str | None) -> dict:
    """Completion tokens split into reasoning and answer, in proportion to their characters
    (used when the backend cannot count them)."""
    r, a = len(reasoning or ""), len(answer or "")
    reasoning_tokens = round(completion_tokens * r / (r + a)) if r + a else 0
    return {
        "reasoning_tokens": reasoning_tokens,
        "answer_tokens": completion_tokens - reasoning_tokens,
    }
