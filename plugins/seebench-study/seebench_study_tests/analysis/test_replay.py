"""Offline replay of logged suggestion requests against another model."""

from __future__ import annotations

from dataclasses import dataclass

from seebench_study.analysis.attempts import session_attempts
from seebench_study.analysis.events import build_log
from seebench_study.analysis.replay import CURSOR, clean_completion, replay, replay_summary


@dataclass
class Reply:
    text: str


class RuleModel:
    """Completes with the line typed after the marker in a rule table; fails on 'boom'."""

    def __init__(self):
        self.prompts = []

    def chat(self, messages, *, max_new_tokens=64, item_id="chat"):
        self.prompts.append((messages, max_new_tokens, item_id))
        user = messages[-1]["content"]
        if "boom" in user:
            raise RuntimeError("server down")
        return Reply("```python\nreturn a + b\n```" if "def add" in user else "pass")


def _attempts(session_writer):
    w = session_writer("s", "auto", "autocomplete")
    w.load("t", 0)
    w.suggest("r1", "return a + b", accept=True, prefix="def add(a, b):\n    ", suffix="\n")
    w.suggest("r2", "return a * b", accept=False, prefix="def mul(a, b):\n    ")
    w.suggest("r3", "x", accept=False, prefix="boom")
    w.emit(
        "suggestion_requested", request_id="r4", prefix="", suffix="", trigger="auto", max_tokens=9
    )
    w.submit("def add(a, b):\n    return a + b\n", passed=True)
    log = build_log("test", ((str(i), e) for i, e in enumerate(w.events)))
    return session_attempts(log.sessions["s"])


def test_replay_compares_with_the_original_and_keeps_going(session_writer):
    model = RuleModel()
    records = {r["request_id"]: r for r in replay(_attempts(session_writer), model)}
    assert set(records) == {"r1", "r2", "r3"}  # r4 was never shown
    messages, max_tokens, item_id = model.prompts[0]
    assert messages[-1]["content"] == f"def add(a, b):\n    {CURSOR}\n"
    assert max_tokens == 64 and item_id == "s/r1"
    assert records["r1"]["identical"] and records["r1"]["replayed_survival"] == 1.0
    assert not records["r2"]["identical"] and records["r2"]["replayed"] == "pass"
    assert "server down" in records["r3"]["error"]
    summary = replay_summary(list(records.values()))
    assert summary["requests"] == 3 and summary["errors"] == 1 and summary["identical"] == 1


def test_replay_limit(session_writer):
    assert len(replay(_attempts(session_writer), RuleModel(), limit=1)) == 1


def test_clean_completion():
    assert clean_completion("```python\nx = 1\n```") == "x = 1"
    assert clean_completion("x = 1\n") == "x = 1"
