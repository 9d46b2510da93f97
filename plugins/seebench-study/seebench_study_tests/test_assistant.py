"""Turning a chat model's reply into the text inserted at the cursor."""

from __future__ import annotations

import pytest
from seebench_study.assistant import clean_completion, completion_messages

BODY = "    total = 0\n    for n in numbers:\n        total += n\n    return total"


@pytest.mark.parametrize(
    ("reply", "prefix", "expected"),
    [
        # a plain continuation after an indented blank line keeps its inner indentation
        ("total = 0\n    return total", "def f(numbers):\n    ", "total = 0\n    return total"),
        # the model repeated the function header inside a fence, with chatter around it
        (
            f"Sure!\n```python\ndef f(numbers):\n{BODY}\n```\nDone.",
            "def f(numbers):\n    ",
            BODY.removeprefix("    "),
        ),
        # mid-line: the model repeated the start of the line
        ("    total = sum(numbers)", "def f(numbers):\n    total = ", "sum(numbers)"),
        ("total = sum(numbers)", "def f(numbers):\n    total = ", "sum(numbers)"),
        # at column 0 after a complete function: nothing to cut
        ("print(f([1]))", "def f(x):\n    return x\n", "print(f([1]))"),
        ("x <CURSOR>", "", "x"),
    ],
)
def test_clean_completion(reply: str, prefix: str, expected: str) -> None:
    assert clean_completion(reply, prefix) == expected


def test_completion_messages_mark_the_cursor() -> None:
    messages = completion_messages("a = 1\n", "\nb = 2")
    assert messages[0]["role"] == "system"
    assert "a = 1\n<CURSOR>\nb = 2" in messages[-1]["content"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]


def test_a_completion_at_column_zero_keeps_its_indentation() -> None:
    from seebench_study.assistant import clean_completion

    prefix = "def f(numbers):\n"
    assert clean_completion("    return 1", prefix) == "    return 1"
    assert clean_completion("```python\n    return 1\n```", prefix) == "    return 1"
    assert clean_completion("\n\n    return 1\n", prefix) == "    return 1"
