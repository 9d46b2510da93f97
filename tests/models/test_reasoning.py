"""Splitting a reasoning model's reply into its reasoning and its answer."""

from __future__ import annotations

import pytest

from seebench.models.reasoning import (
    CUT_OFF_REASON,
    cut_off_reason,
    split_reasoning,
    split_tokens,
)


@pytest.mark.parametrize(
    ("text", "option", "reasoning", "answer"),
    [
        ("<think>a</think> bug", "</think>", "a", "bug"),
        ("a\n</think>\n\nbug", "</think>", "a", "bug"),  # the template opened <think>
        ("<think>x</think> no </think> here", "</think>", "x", "no </think> here"),
        ("[THINK]weigh[/THINK]other", "auto", "weigh", "other"),
        ("<|begin_of_thought|>hm<|end_of_thought|>ok", "auto", "hm", "ok"),
        ("plain answer", "auto", None, "plain answer"),
    ],
)
def test_the_reasoning_is_split_off_before_the_answer(text, option, reasoning, answer):
    split = split_reasoning(text, option)
    assert (split.reasoning, split.answer, split.cut_off) == (reasoning, answer, False)


@pytest.mark.parametrize(
    ("text", "option"),
    [
        ("<think>still weighing", "</think>"),
        ("still weighing, no marker", "</think>"),  # the marker is named: it must come
        ("<think>still weighing", "auto"),
    ],
)
def test_a_reply_without_the_end_marker_is_cut_off(text, option):
    split = split_reasoning(text, option)
    assert split.cut_off and split.answer is None
    assert split.reasoning == "still weighing" or split.reasoning.startswith("still weighing")


def test_cut_off_reason_is_counted_apart_from_parse_errors():
    reason = cut_off_reason("</think>", 64)
    assert reason.split(":")[0] == CUT_OFF_REASON
    assert "'</think>'" in reason and "64" in reason


def test_token_split_adds_up():
    tokens = split_tokens(10, "a" * 30, "b" * 10)
    assert tokens == {"reasoning_tokens": 8, "answer_tokens": 2}
    assert split_tokens(5, None, "x") == {"reasoning_tokens": 0, "answer_tokens": 5}
