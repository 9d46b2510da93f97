"""Participant metrics on hand-built sessions whose values are known."""

from __future__ import annotations

import math

from seebench_study.analysis.events import build_log
from seebench_study.analysis.metrics import condition_table, participant_table


def _log(*writers):
    return build_log("test", ((str(i), e) for w in writers for i, e in enumerate(w.events)))


def test_tasks_time_and_acceptance_split(session_writer):
    w = session_writer("s-a", "auto", "autocomplete")
    w.load("t1", 0)
    w.wait(10).suggest("r1", "a = 1\n", trigger="hotkey", accept=True)
    w.wait(10).suggest("r2", "b = 2\n", trigger="auto", accept=False)
    w.wait(10).suggest("r3", "c = 3\n", trigger="auto", accept=True)
    w.emit(
        "suggestion_requested", request_id="r4", prefix="", suffix="", trigger="auto", max_tokens=9
    )  # never shown
    start = w.events[1]["server_time"] / 1000
    w.wait(50).submit("a = 1\n", passed=False)
    w.wait(20).submit("a = 1\nc = 3\n", passed=True)
    end = w.events[-2]["server_time"] / 1000
    w.load("t2", 1)
    w.wait(600).emit("skip", elapsed_s=600)
    w.emit("task_finished", outcome="skipped")
    table, attempts, _ = participant_table(_log(w))
    row = table.iloc[0]
    assert row["tasks_attempted"] == 2
    assert row["tasks_completed"] == 1
    assert math.isclose(row["time_to_success_s"], end - start)
    assert row["suggestions_shown"] == 3
    assert math.isclose(row["acceptance_rate"], 2 / 3)
    assert row["acceptance_rate_requested"] == 1.0
    assert row["acceptance_rate_auto"] == 0.5
    assert row["accepted_survival"] == 1.0  # both accepted lines are in the final code
    assert [a.outcome for a in attempts] == ["passed", "skipped"]
    assert math.isnan(row["copy_rate"])  # no chat: no rate, not zero


def test_chat_metrics(session_writer):
    w = session_writer("s-c", "chat", "chat")
    w.load("t1", 0)
    w.chat("m1", "abcd", "x", copy=True)
    w.chat("m2", "ab", "y", copy=False)
    w.load("t2", 1)
    w.chat("m3", "abcdef", "z", copy=False)
    w.load("t3", 2)  # no message: not counted in messages per task
    table, _, _ = participant_table(_log(w))
    row = table.iloc[0]
    assert row["chat_messages"] == 3
    assert row["chat_responses"] == 3
    assert math.isclose(row["copy_rate"], 1 / 3)
    assert row["messages_per_task"] == 1.5
    assert row["chars_per_message"] == 4.0
    assert math.isnan(row["acceptance_rate"])


def test_copy_event_may_name_the_user_message(session_writer):
    w = session_writer("s-c", "chat", "chat")
    w.load("t1", 0)
    w.chat("m1", "q", "a", copy=False)
    w.emit("chat_copy_code", message_id="m1", code="a")
    table, _, _ = participant_table(_log(w))
    assert table.iloc[0]["copy_rate"] == 1.0


def test_condition_table_pools_and_averages(session_writer):
    one = session_writer("s-1", "auto", "autocomplete")
    one.load("t", 0)
    one.suggest("r1", "a\n", accept=True)
    two = session_writer("s-2", "auto", "autocomplete")
    two.load("t", 0)
    for k in range(3):
        two.suggest(f"r{k}", "b\n", accept=False)
    conditions = condition_table(participant_table(_log(one, two))[0])
    row = conditions.iloc[0]
    assert row["participants"] == 2
    assert row["acceptance_rate"] == 0.5  # mean of 1.0 and 0.0
    assert row["pooled_acceptance_rate"] == 0.25  # 1 of 4 suggestions


def test_events_without_a_task_go_to_the_task_loaded_last(session_writer):
    w = session_writer("s-n", "auto", "autocomplete")
    w.load("t1", 0)
    w.task = None  # an app that only names the task in load_task
    w.suggest("r1", "a = 1\n", accept=True)
    w.submit("a = 1\n", passed=True)  # task_finished closes t1
    w.suggest("r2", "b = 2\n", accept=True)  # no open task: not counted
    w.emit("survey_answer", survey="post", item="helpful", answer=7)
    table, attempts, _ = participant_table(_log(w))
    assert [a.task for a in attempts] == ["t1"]
    assert table.iloc[0]["tasks_completed"] == 1
    assert table.iloc[0]["suggestions_shown"] == 1
