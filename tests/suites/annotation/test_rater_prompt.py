from __future__ import annotations

import math

import pytest

from seebench.suites.annotation.rater_prompt import (
    answer_probability,
    build_messages,
    majority_value,
    parse_rating,
    pick_shots,
)
from seebench.suites.annotation.scale import Scale

CLOSURE = Scale.from_config(
    [["close", "closed"], ["open", "still open"], ["unknown", "cannot tell"]]
)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("4", 4),
        (" 3.", 3),
        ("I would say 2 (Disagree)", 2),
        ("Strongly agree", 4),
        ("answer: 1\n", 1),
        ("5", None),
        ("2.5", None),
        ("", None),
        ("no idea", None),
    ],
)
def test_parse_rating_on_a_numeric_scale(likert4, text, expected):
    assert parse_rating(text, likert4) == expected


def test_parse_rating_on_a_text_scale():
    assert parse_rating("Open", CLOSURE) == "open"
    assert parse_rating("I cannot tell from this", CLOSURE) == "unknown"
    assert parse_rating("reopened", CLOSURE) is None


def test_majority_and_shots_leave_shot_items_out(small_data):
    assert majority_value(small_data, "i1") == (1, 2 / 3)
    assert majority_value(small_data, "i2") == (2, 1.0)
    shots, rest, missing = pick_shots(small_data, seed=0)
    assert sorted(s.value for s in shots) == [1, 2, 3, 4]
    by_value = {s.value: s.item.id for s in shots}
    assert by_value[2] in {"i2", "i6"}  # unanimous items first
    assert missing == []
    assert set(rest.item_ids) == set(small_data.item_ids) - {s.item.id for s in shots}
    assert pick_shots(small_data, seed=0)[0] == shots


def test_messages_hold_guidelines_scale_shots_and_item(small_data, likert4):
    shots, rest, _ = pick_shots(small_data, seed=0)
    prompt = {
        "context": "Summaries.",
        "task": "Is it accurate?",
        "answer_format": "Reply with a number.",
        "entity": "summary",
    }
    messages = build_messages(prompt, likert4, rest.items[0], shots[:2])
    assert [m["role"] for m in messages] == [
        "system",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    assert "1: Strongly disagree\n2: Disagree" in messages[0]["content"]
    assert messages[1]["content"].startswith("Summary:\ntext: item")
    assert messages[2]["content"] == str(shots[0].value)
    assert not messages[-1]["content"].endswith(":")  # annotate: no cue
    cued = build_messages(prompt, likert4, rest.items[0], shots[:2], cue="Answer:")
    users = [m["content"] for m in cued if m["role"] == "user"]
    assert len(users) == 3 and all(u.endswith("\nAnswer:") for u in users)
    assert [m["content"] for m in cued if m["role"] != "user"] == [
        m["content"] for m in messages if m["role"] != "user"
    ]


def test_answer_probability_sums_spellings_of_the_answer(likert4):
    top = {"4": math.log(0.5), " 4": math.log(0.2), "3": math.log(0.3)}
    assert answer_probability(top, 4, likert4) == pytest.approx(0.7)
    assert answer_probability(top, 1, likert4) is None
