"""Exclusion rules: which sessions the analysis leaves out, and how many each rule removed.

Rules are applied in the order of :data:`RULES`; a session is counted under the first rule
that removes it, so the counts add up to the sessions removed. ``docs/study_analysis.md``
documents them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from seebench.errors import SeebenchError, did_you_mean
from seebench_study.analysis.events import EventLog, Session


def _consented(session: Session) -> bool:
    answers = [e["data"].get("accepted") for e in session.events if e["type"] == "consent"]
    return bool(answers) and answers[-1] is True


def _finished(session: Session) -> bool:
    return any(e["type"] == "session_finished" for e in session.events)


def _started_a_task(session: Session) -> bool:
    return any(
        e["type"] == "load_task" and e["data"].get("tutorial") is not True for e in session.events
    )


def _screened_in(session: Session) -> bool:
    latest: dict[str, bool] = {}
    for event in session.events:
        if event["type"] == "survey_answer" and "screened_out" in event["data"]:
            latest[str(event["data"].get("item"))] = event["data"]["screened_out"] is True
    return not any(latest.values())


#: name -> (what it removes, the test a session must pass to stay).
RULES: dict[str, tuple[str, Callable[[Session], bool]]] = {
    "no-consent": ("did not accept the consent form (declined or never answered)", _consented),
    "screened-out": ("gave a screening answer the study does not accept", _screened_in),
    "no-task": ("never opened a task after the tutorial", _started_a_task),
    "not-finished": ("did not reach the end of the session (no end code)", _finished),
}
DEFAULT_RULES = ("no-consent", "screened-out", "no-task")


@dataclass
class Exclusions:
    """The rules applied, the sessions each removed and the sessions before and after."""

    rules: tuple[str, ...]
    removed: dict[str, list[str]]
    total: int

    @property
    def kept(self) -> int:
        return self.total - sum(len(v) for v in self.removed.values())

    def summary(self) -> str:
        """One line: kept N of M, then the count of each rule."""
        if not self.rules:
            return f"exclusions: none (all {self.total} sessions kept)"
        counts = ", ".join(f"{rule} {len(self.removed[rule])}" for rule in self.rules)
        return f"exclusions: {counts}; {self.kept} of {self.total} sessions kept"

    def to_json(self) -> dict:
        return {
            "rules": list(self.rules),
            "removed": {rule: len(ids) for rule, ids in self.removed.items()},
            "total": self.total,
            "kept": self.kept,
        }


def parse_rules(text: str) -> tuple[str, ...]:
    """``"no-consent,no-task"`` (or ``"none"``, or ``"default"``) as rule names, checked."""
    text = text.strip()
    if text in ("", "none"):
        return ()
    if text == "default":
        return DEFAULT_RULES
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    for name in names:
        if name not in RULES:
            raise SeebenchError(
                f"--exclude {name!r}: not a rule ({', '.join(RULES)}, none){did_you_mean(name, RULES)}"
            )
    return tuple(r for r in RULES if r in names)


def apply_exclusions(log: EventLog, rules: Sequence[str]) -> tuple[EventLog, Exclusions]:
    """``log`` without the sessions the rules remove, and what each rule removed."""
    removed: dict[str, list[str]] = {rule: [] for rule in rules}
    kept = {}
    for session_id, session in log.sessions.items():
        failed = next((rule for rule in rules if not RULES[rule][1](session)), None)
        if failed is None:
            kept[session_id] = session
        else:
            removed[failed].append(session_id)
    return (
        EventLog(log.source, kept, list(log.problems)),
        Exclusions(tuple(rules), removed, len(log.sessions)),
    )
