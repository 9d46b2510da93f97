"""Fixtures for the study analysis: event logs written as the study app would write them."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

SHARED_CHAT = (
    Path(__file__).resolve().parents[4]
    / ".."
    / "shared"
    / "data"
    / "realhumaneval"
    / "chat"
    / "chat_data.csv"
)


class SessionWriter:
    """Emits the envelopes of one session with increasing ``seq`` and a clock in seconds."""

    def __init__(self, session: str, condition: str, kind: str, task_set: int = 0):
        self.session, self.seq, self.clock, self.task = session, 0, 1_700_000_000.0, None
        self.events: list[dict[str, Any]] = []
        self.emit(
            "session_started", condition=condition, kind=kind, task_set=task_set, user_agent="test"
        )

    def emit(self, type_: str, **data: Any) -> dict[str, Any]:
        event = {
            "schema": 1,
            "session": self.session,
            "seq": self.seq,
            "type": type_,
            "task": self.task,
            "client_time": int(self.clock * 1000),
            "server_time": int(self.clock * 1000) + 20,
            "data": data,
        }
        self.seq += 1
        self.events.append(event)
        return event

    def wait(self, seconds: float) -> SessionWriter:
        self.clock += seconds
        return self

    def load(self, task: str, index: int) -> None:
        self.task = task
        self.emit("load_task", task=task, index=index)

    def suggest(
        self,
        rid: str,
        text: str,
        *,
        trigger: str = "auto",
        accept: bool,
        prefix: str = "",
        suffix: str = "",
        reason: str = "typing",
    ) -> None:
        self.emit(
            "suggestion_requested",
            request_id=rid,
            prefix=prefix,
            suffix=suffix,
            trigger=trigger,
            max_tokens=64,
        )
        self.wait(0.5).emit("suggestion_shown", request_id=rid, suggestion=text, latency_ms=500)
        if accept:
            self.wait(1).emit("suggestion_accepted", request_id=rid, suggestion=text)
        else:
            self.wait(1).emit("suggestion_rejected", request_id=rid, suggestion=text, reason=reason)

    def chat(self, mid: str, text: str, reply: str, *, copy: bool) -> None:
        self.emit("chat_user_message", message_id=mid, text=text)
        self.wait(2).emit(
            "chat_assistant_response",
            message_id=f"{mid}-r",
            reply_to=mid,
            text=reply,
            latency_ms=2000,
        )
        if copy:
            self.wait(3).emit("chat_copy_code", message_id=f"{mid}-r", code=reply)

    def submit(self, code: str, passed: bool) -> None:
        self.emit("submit", code=code, passed=passed, output="")
        if passed:
            self.emit("task_finished", outcome="passed")


def write_jsonl(path: Path, events: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    return path


@pytest.fixture
def session_writer():
    return SessionWriter


def simulate_study(seed: int = 0, per_condition: int = 8) -> list[dict[str, Any]]:
    """A seeded study: no LLM, one autocomplete and one chat condition, two task sets.

    Assisted participants pass tasks faster, so the deltas have a known sign.
    """
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    conditions = [
        ("no-llm", "none", 300.0),
        ("auto-m", "autocomplete", 200.0),
        ("chat-m", "chat", 150.0),
    ]
    for condition, kind, mean_time in conditions:
        for number in range(per_condition):
            writer = SessionWriter(f"s-{condition}-{number}", condition, kind, task_set=number % 2)
            writer.emit("consent", accepted=True)
            for index in range(3):
                writer.load(f"task{index}", index)
                kept = []
                if kind == "autocomplete":
                    for k in range(4):
                        accept = rng.random() < 0.4
                        text = f"value_{k} = {k} * {index}\n"
                        writer.wait(5).suggest(
                            f"r{index}-{k}",
                            text,
                            trigger=rng.choice(["auto", "hotkey"]),
                            accept=accept,
                        )
                        if accept or rng.random() < 0.2:  # kept, or typed out by hand
                            kept.append(text)
                            writer.wait(2).emit("snapshot", code="".join(kept))
                if kind == "chat":
                    for k in range(rng.randint(1, 3)):
                        writer.wait(5).chat(
                            f"m{index}-{k}",
                            "how do I sort " * rng.randint(1, 4),
                            "```python\nsorted(x)\n```",
                            copy=rng.random() < 0.5,
                        )
                duration = max(30.0, rng.gauss(mean_time, 40.0))
                writer.wait(duration).submit(
                    "".join(kept) + "def f():\n    return 1\n", passed=rng.random() < 0.8
                )
            writer.task = None
            writer.emit("session_finished", end_code="END")
            events += writer.events
    return events


@pytest.fixture
def simulated_study(tmp_path) -> Path:
    return write_jsonl(tmp_path / "study.jsonl", simulate_study())
