"""Task attempts rebuilt from a session's events: when a task was opened, passed or left.

An attempt is one (session, task) pair. It starts at the first ``load_task`` of that task (a
reload that loads it again does not restart the clock) and is *passed* at its first ``submit``
with ``passed: true`` recorded by the server (tab ``server``; an export without tabs is from
before browsers could not claim verdicts). Events are assigned to the attempt named by their ``task`` key; an event
with no task (other than the session-level ones) goes to the task loaded last, until that
task's ``task_finished``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from seebench_study.analysis.events import SERVER_TAB, Session, event_time

CODE_EVENTS = ("snapshot", "run", "submit")

#: Events about the whole session, never about a task.
SESSION_EVENTS = ("session_started", "consent", "survey_answer", "session_finished")


@dataclass
class Attempt:
    """One participant's work on one task."""

    session: str
    task: str
    index: int | None = None
    started: float | None = None  # seconds (event time of the first load_task)
    passed_at: float | None = None  # first passing submit
    outcome: str = "open"  # task_finished's outcome, or passed/open when it is missing
    tutorial: bool = False  # its load_task says so: left out of the metrics
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.passed_at is not None

    @property
    def time_to_success(self) -> float | None:
        """Seconds from opening the task to its first passing submit (``None`` if never)."""
        if self.passed_at is None or self.started is None:
            return None
        return self.passed_at - self.started

    @property
    def final_code(self) -> str | None:
        """The code of the attempt's last submit, run or snapshot (by ``seq``)."""
        for event in reversed(self.events):
            if event["type"] in CODE_EVENTS and isinstance(event["data"].get("code"), str):
                return event["data"]["code"]
        return None

    def of_type(self, *types: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] in types]


def session_attempts(session: Session) -> list[Attempt]:
    """The attempts of one session, in the order their tasks were first seen."""
    attempts: dict[str, Attempt] = {}
    current: str | None = None
    for event in session.events:
        task = event["task"]
        if event["type"] == "load_task" and isinstance(event["data"].get("task"), str):
            task = task or event["data"]["task"]
        elif task is None and event["type"] not in SESSION_EVENTS:
            task = current
        if not task:
            continue
        current = None if event["type"] == "task_finished" else task
        attempt = attempts.setdefault(task, Attempt(session.id, task))
        attempt.events.append(event)
        kind, data = event["type"], event["data"]
        if kind == "load_task" and attempt.started is None:
            attempt.started = event_time(event)
            index = data.get("index")
            attempt.index = index if isinstance(index, int) else None
            attempt.tutorial = data.get("tutorial") is True
        elif (
            kind == "submit"
            and data.get("passed") is True
            and event.get("tab", SERVER_TAB) == SERVER_TAB
            and attempt.passed_at is None
        ):
            attempt.passed_at = event_time(event)
        elif kind == "task_finished" and isinstance(data.get("outcome"), str):
            attempt.outcome = data["outcome"]
    for attempt in attempts.values():
        if attempt.passed:
            attempt.outcome = "passed"
    return list(attempts.values())
