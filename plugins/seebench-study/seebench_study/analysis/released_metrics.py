"""The paper's chat figures, recomputed from the released log, and the copy-rate definitions.

``docs/study_analysis.md`` explains each definition and which of the paper's numbers it
reproduces; the copy rate is measured under several definitions because none reproduces the
paper's 29.6% exactly.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from seebench_study.analysis.released import PAPER, PAPER_CONDITIONS, ChatMessage

_FENCED = re.compile(r"```[^\n]*\n(.*?)```", re.S)


def has_copy(message: ChatMessage) -> bool:
    """At least one copy event of any kind on the response."""
    return bool(message.copies)


def has_code_copy(message: ChatMessage) -> bool:
    """At least one copied text lying inside a fenced code block of the response."""
    blocks = _FENCED.findall(message.response)
    return any(
        any(str(c.get("copied", "")).strip() in block for block in blocks) for c in message.copies
    )


def has_button_copy(message: ChatMessage) -> bool:
    """At least one copy through the code block's copy button (``copy_button``)."""
    return any(c.get("type") == "copy_button" for c in message.copies)


COPY_DEFINITIONS = {
    "any copy event": has_copy,
    "copied text inside a code block": has_code_copy,
    "copy button only": has_button_copy,
}


def _share(messages: list[ChatMessage], test) -> float:
    return sum(map(test, messages)) / len(messages) if messages else float("nan")


def _participant_mean(messages: list[ChatMessage], test) -> float:
    by_participant: dict[tuple[str, int], list[ChatMessage]] = {}
    for m in messages:
        by_participant.setdefault((m.condition, m.participant), []).append(m)
    shares = [_share(group, test) for group in by_participant.values()]
    return sum(shares) / len(shares) if shares else float("nan")


def released_chat_summary(
    messages: list[ChatMessage], conditions: tuple[str, ...] = PAPER_CONDITIONS
) -> dict[str, Any]:
    """The released log's counts, restricted to ``conditions`` (the paper's three by default)."""
    kept = [m for m in messages if m.condition in conditions]
    tasks = Counter((m.participant, m.task) for m in kept)
    texts = [m.user_text for m in kept]
    lengths = [len(t) for t in texts if t is not None]
    copy_rates: dict[str, Any] = {}
    for name, test in COPY_DEFINITIONS.items():
        copy_rates[name] = {
            "per_message": _share(kept, test),
            "mean_over_participants": _participant_mean(kept, test),
            "per_condition": {
                c: _share([m for m in kept if m.condition == c], test) for c in conditions
            },
        }
    return {
        "rows_in_file": len(messages),
        "rows_by_condition": dict(sorted(Counter(m.condition for m in messages).items())),
        "conditions": list(conditions),
        "messages": len(kept),
        "participants": len({(m.condition, m.participant) for m in kept}),
        "participants_by_condition": {
            c: len({m.participant for m in kept if m.condition == c}) for c in conditions
        },
        "tasks_with_messages": len(tasks),
        "messages_per_task": len(kept) / len(tasks) if tasks else float("nan"),
        "messages_without_user_turn": sum(t is None for t in texts),
        "chars_per_message": sum(lengths) / len(lengths) if lengths else float("nan"),
        "copy_events": sum(len(m.copies) for m in kept),
        "copy_events_by_type": dict(Counter(str(c.get("type")) for m in kept for c in m.copies)),
        "copy_events_per_message": sum(len(m.copies) for m in kept) / len(kept)
        if kept
        else float("nan"),
        "copy_rate": copy_rates,
        "paper": PAPER,
    }


def messages_per_task_counts(messages: list[ChatMessage], conditions=PAPER_CONDITIONS) -> list[int]:
    """Messages sent in each (participant, task) with at least one message (for a histogram)."""
    return list(
        Counter((m.participant, m.task) for m in messages if m.condition in conditions).values()
    )


def message_lengths(messages: list[ChatMessage], conditions=PAPER_CONDITIONS) -> list[int]:
    """Characters of each user message (for a histogram)."""
    return [
        len(m.user_text) for m in messages if m.condition in conditions and m.user_text is not None
    ]


def format_summary(summary: dict[str, Any]) -> str:
    """The reproduced counts next to the paper's, as text for the terminal."""
    paper = summary["paper"]
    lines = [
        f"released chat log: {summary['rows_in_file']} messages in the file "
        + ", ".join(f"{c}: {n}" for c, n in summary["rows_by_condition"].items()),
        f"paper's conditions ({', '.join(summary['conditions'])}): "
        f"{summary['messages']} messages (paper: {paper['messages']}), "
        f"{summary['participants']} participants",
        f"messages per task (tasks with >= 1 message: {summary['tasks_with_messages']}): "
        f"{summary['messages_per_task']:.2f} (paper: {paper['messages_per_task']})",
        f"characters per user message (last user turn; {summary['messages_without_user_turn']} "
        f"messages without one left out): {summary['chars_per_message']:.2f} "
        f"(paper: {paper['chars_per_message']})",
        f"copy events: {summary['copy_events']} "
        + str(summary["copy_events_by_type"])
        + f", {summary['copy_events_per_message']:.3f} per message",
        f"share of messages with a copy (paper: {paper['copy_rate']:.1%}; by condition "
        + ", ".join(f"{c} {v:.0%}" for c, v in paper["copy_rate_by_condition"].items())
        + "):",
    ]
    for name, rates in summary["copy_rate"].items():
        by_condition = ", ".join(f"{c} {v:.1%}" for c, v in rates["per_condition"].items())
        lines.append(
            f"  {name}: {rates['per_message']:.1%} of messages, "
            f"{rates['mean_over_participants']:.1%} mean over participants ({by_condition})"
        )
    return "\n".join(lines)
