"""The versioned item list: validation, and rows rebuilt from the repository's files."""

from __future__ import annotations

import json

import pytest

from seebench.suites.copilot.repo_generate.items import item_row, read_items, shown_prefix
from seebench.suites.copilot.repo_generate.methods import documented_methods
from seebench.suites.copilot.repo_generate.selection import file_digest
from tests.suites.copilot.repo_generate.support import MODULE


def item(**changes):
    count = next(m for m in documented_methods(MODULE, "toolkit.py") if m.name == "Words.count")
    record = {
        "id": "tiny/toolkit:toolkit.py:Words.count", "slug": "tiny+toolkit@" + "0" * 40,
        "language": "python", "file": "toolkit.py", "name": "Words.count",
        "start_line": count.start_line, "body_start": count.body_start,
        "body_end": count.body_end, "file_sha256": file_digest(MODULE),
        "tests": ["tests/test_toolkit.py::test_count"],
    }  # fmt: skip
    return {**record, **changes}


def test_a_row_shows_the_file_up_to_the_placeholder_and_keeps_the_body():
    row = item_row(item(), MODULE, "tiny/toolkit", 12000)
    target = row["target"]
    assert target["excluded"] is None
    assert target["reference"] == "        return len(self.text.split())\n"
    assert target["context"] == MODULE.replace(target["reference"], "        # Your code here\n", 1)
    assert (
        row["input"]
        .rstrip("`\n")
        .endswith('"""How many words the text has."""\n        # Your code here')
    )
    assert "def banner" not in row["input"]  # only the file up to the method (§4.2.3)


def test_items_that_no_longer_match_their_file_are_excluded_with_the_reason():
    changed = item_row(item(), MODULE.replace("import re", "import os"), "r", 12000)
    assert "differs from the listed file" in changed["target"]["excluded"]
    moved = item_row(item(body_start=item()["body_start"] + 1), MODULE, "r", 12000)
    assert "no documented method Words.count" in moved["target"]["excluded"]
    assert "not in the repository" in item_row(item(), None, "r", 12000)["target"]["excluded"]


def test_long_files_show_their_last_lines_with_a_note():
    shown = shown_prefix([f"x{n} = {n}" for n in range(100)], 60, "#")
    assert shown.startswith("# ... (")
    assert shown.endswith("x99 = 99\n") and len(shown) < 120


def test_bad_list_lines_are_one_clear_error_naming_file_line_and_key(tmp_path):
    path = tmp_path / "items.jsonl"
    path.write_text(json.dumps(item()) + "\n" + json.dumps(item(tests=[])) + "\n")
    with pytest.raises(ValueError, match=r"items.jsonl:2: 'tests' must be a non-empty list"):
        read_items(path)
    path.write_text(json.dumps(item(start_line="3")) + "\n")
    with pytest.raises(ValueError, match=r"items.jsonl:1: key 'start_line' is missing or not int"):
        read_items(path)
    path.write_text(json.dumps(item()) + "\n" + json.dumps(item()) + "\n")
    with pytest.raises(ValueError, match="listed twice"):
        read_items(path)
    path.write_text("{not json\n")
    with pytest.raises(ValueError, match="items.jsonl:1: invalid JSON"):
        read_items(path)


TS_MODULE = """export class Clock {
  private ticks = 0;

  /**
   * Advance the clock by `n` ticks and return the new count.
   */
  advance(n: number): number {
    this.ticks += n;
    return this.ticks;
  }
}
"""


def test_a_typescript_item_shows_a_typescript_block_and_its_body_restores_the_file():
    """The TypeScript task reads items like the JavaScript one: a ``//`` placeholder in a
    ``typescript`` block, and the original body put back gives the file again."""
    from seebench.suites.copilot.repo_generate.assembly import place_answer

    method = next(m for m in documented_methods(TS_MODULE, "src/clock.ts"))
    record = item(
        id="tiny/clock:src/clock.ts:Clock.advance", language="typescript", file="src/clock.ts",
        name=method.name, start_line=method.start_line, body_start=method.body_start,
        body_end=method.body_end, file_sha256=file_digest(TS_MODULE),
        tests=["test/clock.test.ts::Clock advances"],
    )  # fmt: skip
    row = item_row(record, TS_MODULE, "tiny/clock", 12000)
    target = row["target"]
    assert method.name == "Clock.advance" and target["excluded"] is None
    assert "```typescript\n" in row["input"] and row["input"].rstrip("`\n").endswith(
        "advance(n: number): number {\n    // Your code here"
    )
    assert place_answer(target, target["reference"]).source == TS_MODULE
