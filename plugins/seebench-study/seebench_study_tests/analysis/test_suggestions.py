"""Survival of accepted suggestions and typed-out acceptances."""

from __future__ import annotations

from seebench_study.analysis.attempts import session_attempts
from seebench_study.analysis.events import build_log
from seebench_study.analysis.suggestions import attempt_suggestions, line_survival


def _suggestions(writer):
    log = build_log("test", ((str(i), e) for i, e in enumerate(writer.events)))
    (attempt,) = session_attempts(log.sessions[writer.session])
    return {s.request_id: s for s in attempt_suggestions(attempt)}


def test_line_survival():
    assert line_survival("a = 1\n\n  b = 2\n", "b = 2\nx = 0\n") == 0.5
    assert line_survival("a = 1\n", "a = 1\n") == 1.0
    assert line_survival("\n  \n", "a") is None


def test_accepted_suggestion_survival_uses_the_final_code(session_writer):
    w = session_writer("s", "auto", "autocomplete")
    w.load("t", 0)
    w.suggest("r1", "total = 0\nfor x in xs:\n    total += x\n", accept=True)
    w.wait(15).emit("snapshot", code="total = 0\nfor x in xs:\n    total += x\n")
    w.wait(15).submit("total = sum(xs)\nfor x in xs:\n    total += x\n", passed=True)
    assert abs(_suggestions(w)["r1"].survival - 2 / 3) < 1e-9


def test_typed_out_acceptance(session_writer):
    w = session_writer("s", "auto", "autocomplete")
    w.load("t", 0)
    w.suggest("typed", "return sorted(items)", accept=False, prefix="def f(items):\n    ")
    w.suggest("ignored", "return reversed(items)", accept=False)
    w.suggest("late", "print('done here')", accept=False)
    w.suggest("short", "x=1", accept=False)
    w.suggest("there", "import os", accept=False, prefix="import os\n")
    w.wait(10).emit("snapshot", code="import os\nx=1\ndef f(items):\n    return  sorted(items)\n")
    w.wait(120).emit("snapshot", code="print('done here')\n")
    found = _suggestions(w)
    assert found["typed"].typed_out  # whitespace differences do not matter
    assert not found["ignored"].typed_out
    assert not found["late"].typed_out  # typed after the 60 s window
    assert not found["short"].typed_out  # too short to tell
    assert not found["there"].typed_out  # already in the code when shown


def test_dismissed_then_requested_again_and_accepted_is_not_typed_out(session_writer):
    w = session_writer("s", "auto", "autocomplete")
    w.load("t", 0)
    w.suggest("first", "return sorted(items)", accept=False, reason="escape")
    w.wait(3).suggest("again", "return sorted(items)", accept=True, trigger="hotkey")
    w.wait(10).emit("snapshot", code="def f(items):\n    return sorted(items)\n")
    found = _suggestions(w)
    assert found["again"].accepted and not found["first"].typed_out
