"""The protocol state machine on a virtual clock: order of phases, facts once per (session,
task, kind), the skip wait, the session clock, the completion rule and the chat rate limit."""

from __future__ import annotations

import dataclasses

import pytest
from seebench_study.cohort import VirtualClock
from seebench_study.definition import load_study
from seebench_study.protocol import ApiError, Protocol
from seebench_study.store import StudyStore, read_events

from seebench_study_tests.conftest import write_test_study

TAB = "tab-1"


@pytest.fixture
def world(rhe_tasks, tmp_path):
    """(protocol, row, clock): one chat session of the test study, at consent."""
    study = load_study(str(write_test_study(tmp_path, "http://127.0.0.1:9/v1", ("chat",))))
    study = dataclasses.replace(study, skip_after_s=60.0, session_s=600.0, chat_rate=(2, 60.0))
    clock = VirtualClock()
    store = StudyStore(tmp_path / "p.sqlite", clock=clock)
    row = {
        "session": "s-1",
        "study": study.name,
        "participant": "",
        "condition": "chat",
        "kind": "chat",
        "model": None,
        "task_set": 0,
        "started": clock(),
    }
    store.create_session(row)
    protocol = Protocol(study, store, clock)
    protocol.begin(row, "agent")
    protocol.claim(row, TAB, False)
    yield protocol, row, clock
    store.close()


def _to_tasks(protocol: Protocol, row: dict) -> dict:
    protocol.consent(row, TAB, True)
    protocol.survey(row, TAB, "screening", {"adult": "yes"})
    return protocol.survey(row, TAB, "pre", {"experience": "3+"})


def test_phases_go_forward_only_and_facts_are_stored_once(world) -> None:
    protocol, row, _ = world
    with pytest.raises(ApiError, match="at consent"):
        protocol.survey(row, TAB, "pre", {"experience": "3+"})
    state = _to_tasks(protocol, row)
    assert (state["phase"], state["task_index"]) == ("task", 0)
    with pytest.raises(ApiError, match="at task"):
        protocol.consent(row, TAB, True)
    protocol.passed(row, TAB, "sum_product")
    with pytest.raises(ApiError, match="not the current task"):
        protocol.passed(row, TAB, "sum_product")  # a replay
    types = [(e["type"], e["task"]) for e in read_events(protocol.store.path)]
    assert types.count(("task_finished", "sum_product")) == 1
    assert (
        protocol.store.add_fact(
            "s-1",
            "task_finished:sum_product",
            "task_finished",
            "sum_product",
            {"outcome": "passed"},
        )
        is False
    )


def test_skips_wait_and_the_clock_ends_the_tasks(world) -> None:
    protocol, row, clock = world
    _to_tasks(protocol, row)
    clock.advance(59)
    with pytest.raises(ApiError, match="can be skipped after"):
        protocol.skip(row, TAB, "sum_product")
    clock.advance(1)
    state = protocol.skip(row, TAB, "sum_product")  # the tutorial: the clock starts now
    assert state["task_index"] == 1
    assert protocol.clock_left_ms(row, state) == 600_000
    clock.advance(600)
    state = protocol.state(row)
    assert state["phase"] == "post"
    outcomes = [
        e["data"]["outcome"]
        for e in read_events(protocol.store.path)
        if e["type"] == "task_finished"
    ]
    assert outcomes == ["skipped", "timeout"]


def test_the_end_code_needs_the_completion_rule(world) -> None:
    protocol, row, clock = world
    _to_tasks(protocol, row)
    with pytest.raises(ApiError, match="no end code"):
        protocol.end_code(row)
    clock.advance(60)
    protocol.skip(row, TAB, "sum_product")
    clock.advance(60)
    protocol.skip(row, TAB, "even_odd_count")  # one task ended after the tutorial: enough
    state = protocol.survey(row, TAB, "post", {"helpfulness": 3})
    assert state["phase"] == "done" and protocol.end_code(row) == state["end_code"]


def test_the_tutorial_alone_gives_no_end_code(world) -> None:
    protocol, row, clock = world
    protocol.study = dataclasses.replace(protocol.study, min_tasks=2)
    _to_tasks(protocol, row)
    clock.advance(60)
    protocol.skip(row, TAB, "sum_product")
    clock.advance(60)
    protocol.skip(row, TAB, "even_odd_count")
    protocol.survey(row, TAB, "post", {"helpfulness": 3})
    with pytest.raises(ApiError, match="fewer than 2 task"):
        protocol.end_code(row)


def test_one_tab_drives_and_declining_is_final(world) -> None:
    protocol, row, clock = world
    assert protocol.claim(row, "tab-2", False)["active_tab"] == TAB  # the first is alive
    with pytest.raises(ApiError) as refused:
        protocol.consent(row, "tab-2", True)
    assert refused.value.status == 409
    clock.advance(60)  # the first tab went quiet: another takes the session unasked
    assert protocol.claim(row, "tab-2", False)["active_tab"] == "tab-2"
    protocol.consent(row, "tab-2", False)
    with pytest.raises(ApiError) as ended:
        protocol.require(row, "tab-2", "task")
    assert ended.value.status == 403


def test_the_chat_rate_limit_is_per_window(world) -> None:
    protocol, row, clock = world
    _to_tasks(protocol, row)
    protocol.chat_turn(row, TAB)
    protocol.chat_turn(row, TAB)
    with pytest.raises(ApiError) as limited:
        protocol.chat_turn(row, TAB)
    assert limited.value.status == 429
    clock.advance(60)
    protocol.chat_turn(row, TAB)
