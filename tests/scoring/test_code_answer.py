"""The code in a model's reply, and the reason given when there is none."""

from __future__ import annotations

import pytest

from seebench.scoring.code_answer import UNCLOSED, UNOPENED, parse_code_reply


def test_one_fenced_block_is_the_code():
    assert parse_code_reply("Here:\n```python\nx = 1\n```\n").value == "x = 1\n"


def test_a_reply_without_fences_is_the_code():
    assert parse_code_reply("    return 1\n").value == "    return 1\n"


@pytest.mark.parametrize(
    "reply",
    ["    return a + b\n```\n", "    return a + b\n```", "def f():\n    pass\n```  \n\n"],
)
def test_a_closing_fence_without_an_opening_one_is_named_so(reply):
    parsed = parse_code_reply(reply)
    assert parsed.value is None and parsed.error == UNOPENED


@pytest.mark.parametrize(
    "reply",
    [
        "```python\ndef f():\n    return",  # cut off inside the block
        "Sure:\n```\ndef f():\n    return 1\n",
        "```python\n",
        "x = 1\n```\ny = 2\n",  # a bare fence with code after it opens a block
        "```python\nx = 1\n```\n```\n",  # a pair, then a lone fence
    ],
)
def test_an_opening_fence_never_closed_is_unclosed(reply):
    parsed = parse_code_reply(reply)
    assert parsed.value is None and parsed.error == UNCLOSED
