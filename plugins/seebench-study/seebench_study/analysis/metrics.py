"""Per-participant study metrics from telemetry (one row per session).

Every column is defined in ``docs/study_analysis.md``. Rates are NaN where their denominator is
zero (a chat participant has no suggestions; a participant who passed nothing has no time to
success), so means over participants skip them rather than count them as zero.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from seebench_study.analysis.attempts import Attempt, session_attempts
from seebench_study.analysis.events import EventLog, Session
from seebench_study.analysis.suggestions import Suggestion, attempt_suggestions

#: Participant-level outcome metrics compared with the no-LLM condition (higher is better?).
OUTCOMES = {"tasks_completed": True, "time_to_success_s": False}

METRIC_COLUMNS = [
    "tasks_attempted",
    "tasks_completed",
    "time_to_success_s",
    "suggestions_shown",
    "suggestions_accepted",
    "acceptance_rate",
    "acceptance_rate_requested",
    "acceptance_rate_auto",
    "accepted_survival",
    "typed_out_acceptances",
    "chat_messages",
    "chat_responses",
    "copy_rate",
    "messages_per_task",
    "chars_per_message",
]


def _rate(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else math.nan


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else math.nan


def chat_counts(attempts: list[Attempt]) -> dict[str, Any]:
    """User messages, responses, responses copied from, and tasks with a message."""
    messages: list[str] = []
    responses: dict[str, str | None] = {}  # response message_id -> the user message it answers
    copied: set[str] = set()
    tasks_with_chat = 0
    for attempt in attempts:
        sent = [
            e
            for e in attempt.of_type("chat_user_message")
            if isinstance(e["data"].get("text"), str)
        ]
        messages += [e["data"]["text"] for e in sent]
        tasks_with_chat += bool(sent)
        for event in attempt.of_type("chat_assistant_response"):
            message_id = event["data"].get("message_id")
            if isinstance(message_id, str):
                reply_to = event["data"].get("reply_to")
                responses[message_id] = reply_to if isinstance(reply_to, str) else None
        for event in attempt.of_type("chat_copy_code"):
            if isinstance(event["data"].get("message_id"), str):
                copied.add(event["data"]["message_id"])
    copied_responses = sum(rid in copied or (reply in copied) for rid, reply in responses.items())
    return {
        "chat_messages": len(messages),
        "chat_responses": len(responses),
        "copied_responses": copied_responses,
        "tasks_with_chat": tasks_with_chat,
        "message_chars": [len(m) for m in messages],
    }


def session_metrics(session: Session) -> tuple[dict[str, Any], list[Attempt], list[Suggestion]]:
    """One participant's metrics, with the attempts and suggestions they came from."""
    attempts = [a for a in session_attempts(session) if not a.tutorial]  # outside the clock
    suggestions = [s for a in attempts for s in attempt_suggestions(a)]
    shown = [s for s in suggestions if s.shown]
    requested = [s for s in shown if s.requested]
    automatic = [s for s in shown if s.trigger == "auto"]
    survivals = [s.survival for s in shown if s.survival is not None]
    times = [a.time_to_success for a in attempts if a.time_to_success is not None]
    chat = chat_counts(attempts)
    row: dict[str, Any] = {
        "session": session.id,
        "condition": session.condition,
        "kind": session.kind,
        "task_set": session.task_set,
        "tasks_attempted": sum(a.started is not None for a in attempts),
        "tasks_completed": sum(a.passed for a in attempts),
        "time_to_success_s": _mean(times),
        "suggestions_shown": len(shown),
        "suggestions_accepted": sum(s.accepted for s in shown),
        "acceptance_rate": _rate(sum(s.accepted for s in shown), len(shown)),
        "acceptance_rate_requested": _rate(sum(s.accepted for s in requested), len(requested)),
        "acceptance_rate_auto": _rate(sum(s.accepted for s in automatic), len(automatic)),
        "accepted_survival": _mean(survivals),
        "typed_out_acceptances": sum(s.typed_out for s in shown),
        "chat_messages": chat["chat_messages"],
        "chat_responses": chat["chat_responses"],
        "copy_rate": _rate(chat["copied_responses"], chat["chat_responses"]),
        "messages_per_task": _rate(chat["chat_messages"], chat["tasks_with_chat"]),
        "chars_per_message": _mean(chat["message_chars"]),
        "_requested_shown": len(requested),
        "_requested_accepted": sum(s.accepted for s in requested),
        "_auto_shown": len(automatic),
        "_auto_accepted": sum(s.accepted for s in automatic),
        "_copied_responses": chat["copied_responses"],
        "_tasks_with_chat": chat["tasks_with_chat"],
        "_message_chars": sum(chat["message_chars"]),
    }
    return row, attempts, suggestions


def participant_table(log: EventLog) -> tuple[pd.DataFrame, list[Attempt], list[Suggestion]]:
    """Metrics per session (columns: session, condition, kind, task_set, then metrics)."""
    rows, attempts, suggestions = [], [], []
    for session in log.sessions.values():
        row, session_attempts_, session_suggestions = session_metrics(session)
        rows.append(row)
        attempts += session_attempts_
        suggestions += session_suggestions
    return pd.DataFrame(rows), attempts, suggestions


def condition_table(participants: pd.DataFrame) -> pd.DataFrame:
    """Per condition: participants, mean of each per-participant metric, and pooled rates.

    Pooled rates divide summed counts (every suggestion or response weighs the same); the
    per-participant means weigh every participant the same.
    """
    out = []
    for condition, group in participants.groupby("condition", dropna=False, sort=True):
        row: dict[str, Any] = {
            "condition": condition,
            "kind": group["kind"].iloc[0],
            "participants": len(group),
        }
        for column in METRIC_COLUMNS:
            row[column] = group[column].mean(skipna=True)
        sums = group.sum(numeric_only=True)
        row["pooled_acceptance_rate"] = _rate(
            sums["suggestions_accepted"], sums["suggestions_shown"]
        )
        row["pooled_acceptance_rate_requested"] = _rate(
            sums["_requested_accepted"], sums["_requested_shown"]
        )
        row["pooled_acceptance_rate_auto"] = _rate(sums["_auto_accepted"], sums["_auto_shown"])
        row["pooled_copy_rate"] = _rate(sums["_copied_responses"], sums["chat_responses"])
        row["pooled_messages_per_task"] = _rate(sums["chat_messages"], sums["_tasks_with_chat"])
        row["pooled_chars_per_message"] = _rate(sums["_message_chars"], sums["chat_messages"])
        out.append(row)
    order = {"none": 0, "autocomplete": 1, "chat": 2}
    return (
        pd.DataFrame(out)
        .sort_values(
            ["kind", "condition"], key=lambda c: c.map(order).fillna(3) if c.name == "kind" else c
        )
        .reset_index(drop=True)
    )
