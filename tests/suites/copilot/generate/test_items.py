"""Function items: definitions found by lines, placeholder bodies, HumanEval rows and
RealHumanEval's task files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.data.file_sets import FileSet
from seebench.suites.copilot.generate.items import (
    PLACEHOLDER,
    humaneval_items,
    read_realhumaneval_tasks,
    split_definition,
)
from tests.suites.copilot.generate.support import mirror_file_set

SOURCE = "import os\n\ndef helper():\n    return 1\n\n\ndef target(x):\n    y = x\n\n    return y\n# trailing comment\nprint(target(2))\n"


def test_split_definition_keeps_the_block_and_what_surrounds_it():
    before, definition, after = split_definition(SOURCE, "target")
    assert before.endswith("\n\n\n") and "helper" in before
    assert definition == "def target(x):\n    y = x\n\n    return y\n"
    assert after == "# trailing comment\nprint(target(2))\n"
    assert split_definition(SOURCE, "missing") is None
    assert split_definition(SOURCE, "targ") is None  # whole names only


def _row(prompt: str, entry: str = "inc") -> dict:
    return {
        "task_id": "T/0",
        "prompt": prompt,
        "canonical_solution": "    return x + 1\n",
        "test": "def check(candidate):\n    assert candidate(1) == 2\n",
        "entry_point": entry,
    }


def test_humaneval_rows_get_a_placeholder_body_after_the_docstring():
    (item,) = humaneval_items([_row('def inc(x):\n    """Add one."""\n')])
    assert item["context"] == f'def inc(x):\n    """Add one."""\n    {PLACEHOLDER}\n'
    assert item["placeholder"] == f"    {PLACEHOLDER}"
    assert item["solution"].endswith("return x + 1\n")
    assert item["tests"].rstrip().endswith("check(inc)")
    assert item["reference"] == "    return x + 1\n"


def test_a_humaneval_row_without_its_definition_is_an_error_naming_it():
    with pytest.raises(ValueError, match="T/0: no top-level definition of 'inc'"):
        humaneval_items([_row("def other(x):\n    pass\n")])
    with pytest.raises(ValueError, match="HumanEval row 0: no text under 'prompt'"):
        humaneval_items([{**_row("x"), "prompt": None}])


def _file_set(tmp_path: Path, tasks: dict[str, object]) -> FileSet:
    paths = {}
    for name, value in tasks.items():
        path = tmp_path / name
        path.write_text(value if isinstance(value, str) else json.dumps(value))
        paths[f"tasks/{name}"] = path
    return FileSet(tmp_path / "list.sha256", paths)


TASK = {
    "name": "double",
    "task_description": "Double a number.",
    "function_signature": "def double(n):",
    "unit_test": "assert double(2) == 4\n",
    "solution": "def helper():\n    pass\n\ndef double(n):\n    return 2 * n\n",
    "type": "logic",
}


def test_realhumaneval_tasks_read_as_items_with_their_focal_definition(tmp_path):
    (item,) = read_realhumaneval_tasks(_file_set(tmp_path, {"double.json": TASK}))
    assert item["entry_point"] == "double"  # the tests use it; helper is not the focal one
    assert item["context"] == f"def double(n):\n    {PLACEHOLDER}\n"
    assert item["description"] == "Double a number."
    assert item["reference"] == item["solution"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "double.json: invalid JSON"),
        ([1, 2], "double.json: expected a JSON object, got list"),
        ({**TASK, "unit_test": None}, "double.json: key 'unit_test' is missing or not text"),
        ({**TASK, "unit_test": "assert True\n"}, "double.json: double: cannot tell the focal"),
        ({**TASK, "solution": "def double(:\n"}, "double.json: double: the solution does not"),
    ],
)
def test_a_bad_task_file_is_one_line_naming_it(tmp_path, content, message):
    with pytest.raises(ValueError, match=message):
        read_realhumaneval_tasks(_file_set(tmp_path, {"double.json": content}))


def test_the_mirrored_realhumaneval_tasks_all_read():
    items = {item["id"]: item for item in read_realhumaneval_tasks(mirror_file_set())}
    assert len(items) == 17
    assert items["calculator"]["entry_point"] == "Calculator"
    assert items["calculator"]["placeholder"] is None  # a fix task: whole definition only
    assert items["event_scheduler"]["entry_point"] == "schedule_events"
    assert items["sum_product"]["placeholder"] == f"    {PLACEHOLDER}"
    assert sum(1 for item in items.values() if item["placeholder"]) == 15
