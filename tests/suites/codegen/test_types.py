"""The code task type: honest parsing of replies, target records, the shipped task's data."""

from __future__ import annotations

import pytest

from seebench.data.dataset import DataError, load_task_data
from seebench.errors import SeebenchError
from seebench.plugin_manager import get_registry, get_task_index
from seebench.scoring.code_answer import parse_code_reply
from seebench.suites.codegen.types import CodeType, code_target

BODY = "    return a + b\n"


@pytest.mark.parametrize(
    "reply, code",
    [
        (f"```python\n{BODY}```", BODY),
        (f"Here it is:\n```py\n{BODY}```\nIt adds.", BODY),
        (f"```\n{BODY}```", BODY),
        (BODY, BODY),  # no fence: the whole reply is the code
    ],
)
def test_the_code_is_the_one_fenced_block_or_the_whole_reply(reply, code):
    parsed = parse_code_reply(reply)
    assert parsed.valid and parsed.value == code


@pytest.mark.parametrize(
    "reply, error",
    [
        ("   \n", "empty reply"),
        (f"```python\n{BODY}", "unclosed code block"),
        (f"```python\n{BODY}```\ntext\n```python\nprint(1)\n```", "2 code blocks; expected one"),
        (f"```python\n{BODY}```\n```", "unclosed code block"),
        ("```java\nreturn a + b;\n```", "code block in 'java'; expected python"),
        ("```python\n\n```", "empty code block"),
    ],
)
def test_unreadable_replies_are_errors_not_guesses(reply, error):
    parsed = parse_code_reply(reply)
    assert parsed.value is None and parsed.error.startswith(error)


def test_targets_are_checked_records():
    task = get_task_index().get("humaneval")
    kind = CodeType()
    good = {"entry_point": "add", "tests": "def check(f): assert f(1, 2) == 3", "reference": BODY}
    assert kind.normalise_target(task, good) == good
    for bad, message in [
        ("not a record", "is a record"),
        ({**good, "entry_point": "not valid"}, "is not a Python identifier"),
        ({**good, "tests": " "}, "are empty"),
        ({**good, "extra": 1}, "unknown key"),
    ]:
        with pytest.raises(DataError, match=message):
            kind.normalise_target(task, bad)
    with pytest.raises(SeebenchError, match="list python_tests under .scorers:."):
        kind.sample_score(task, good, BODY)


def test_code_target_packs_the_columns_and_names_a_missing_one():
    rows = [
        {
            "prompt": "def add(a, b):\n",
            "entry_point": "add",
            "test": "def check(f): pass",
            "canonical_solution": BODY,
        }
    ]
    [row] = code_target(rows)
    assert row["target"] == {"entry_point": "add", "tests": "def check(f): pass", "reference": BODY}
    with pytest.raises(KeyError, match="no column 'test'"):
        code_target([{"entry_point": "add"}])


def test_humaneval_reads_164_problems_from_the_wheel_all_of_them_test_items():
    task = get_task_index().get("humaneval")
    assert task.suite == "codegen" and task.behaviour.target_kind == "code"
    data = load_task_data(task, get_registry())
    assert data.counts() == {"train": 0, "validation": 0, "test": 164}
    first = data.test[0]
    assert (
        first.input.startswith("from typing import List")
        and "def has_close_elements" in first.input
    )
    assert first.target["entry_point"] == "has_close_elements"
    assert first.target["reference"].startswith("    for idx, elem in enumerate(numbers):")
    assert len({s.id for s in data.test}) == 164
    assert list(data.checksums.values()) == [
        "b796127e635a67f93fb35c04f4cb03cf06f38c8072ee7cee8833d7bee06979ef"
    ]
