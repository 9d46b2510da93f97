"""``seebench study power``: participants needed, from the released RealHumanEval log."""

from __future__ import annotations

import math

import pytest
from click.testing import CliRunner
from seebench_study.analysis.released import ChatMessage
from seebench_study.power import participants_needed, per_participant, spread

from seebench.errors import SeebenchError


def _message(participant: int, task: str, at: float) -> ChatMessage:
    return ChatMessage(participant, "c", task, at, [{"role": "user", "content": "x"}], "", [])


def test_per_participant_metrics_use_each_tasks_first_message() -> None:
    messages = [
        _message(1, "a", 0),
        _message(1, "a", 50),  # a later message on the same task does not move its start
        _message(1, "b", 100),
        _message(1, "c", 400),
        _message(2, "a", 10),
    ]
    assert per_participant(messages, "seconds_per_task") == [200.0]  # (100 + 300) / 2
    assert per_participant(messages, "tasks_reached") == [3.0, 1.0]
    with pytest.raises(SeebenchError, match="--metric"):
        per_participant(messages, "nope")


def test_more_participants_for_smaller_effects_and_stricter_alpha() -> None:
    small, large = participants_needed(30, 100), participants_needed(90, 100)
    assert small > large > 1
    assert participants_needed(60, 100, comparisons=2) > participants_needed(60, 100)
    # the normal approximation 2 * ((z_.975 + z_.8) / d) ** 2, within the t-test's correction
    d = 0.6
    approximate = 2 * ((1.959964 + 0.841621) / d) ** 2
    assert math.ceil(approximate) <= participants_needed(60, 100) <= math.ceil(approximate) + 2
    with pytest.raises(SeebenchError):
        participants_needed(0, 100)


def test_power_from_the_released_log(rhe_tasks) -> None:
    from seebench_study.analysis import released as rel
    from seebench_study.cli import study_group

    messages, _ = rel.read_released_chat(rel.cache_released_chat(rhe_tasks / "chat"))
    found = spread(messages, "seconds_per_task")
    assert found.participants > 50 and found.sd > 0
    result = CliRunner().invoke(
        study_group, ["power", "--effect", "60", "--effect", "120", "--conditions", "3"]
    )
    assert result.exit_code == 0, result.output
    rows = [line for line in result.output.splitlines() if line.startswith("| 60 ")]
    (row,) = rows
    per_condition = int(row.split("|")[3])
    assert per_condition == participants_needed(60, found.sd, comparisons=2)
