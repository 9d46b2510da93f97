"""The fix task type: the reply's file, targets checked, the reference answers."""

from __future__ import annotations

import pytest

from seebench.data.dataset import DataError, Sample
from seebench.suites.copilot.fix.types import FixType, parse_file_reply, prompt_input


class _Task:
    name = "copilot_fix_test"
    prompt: dict = {}


TARGET = {
    "case_id": "case-1",
    "analyzer": "pylint",
    "rule": "undefined-variable",
    "message": "Undefined variable 'x'",
    "line": 2,
    "language": "python",
    "file_name": "pkg/mod.py",
    "original": "import os\nprint(x)\n",
    "warnings": 1,
}


def test_the_reply_is_the_one_fenced_file_or_the_whole_text():
    assert parse_file_reply("Here:\n```python\nprint(1)\n```\n").value == "print(1)\n"
    assert parse_file_reply("print(1)\n").value == "print(1)\n"
    assert parse_file_reply("```ts\nlet a = 1;\n```").value == "let a = 1;\n"
    assert "2 code blocks" in parse_file_reply("```\na\n```\n```\nb\n```\n").error
    assert "cut off" in parse_file_reply("```python\nprint(1)\n").error
    assert "'java'" in parse_file_reply("```java\nclass A {}\n```").error
    assert parse_file_reply("  ").error == "empty reply"


def test_targets_are_checked_and_the_null_answer_is_the_original_file():
    kind = FixType()
    assert kind.normalise_target(_Task(), dict(TARGET)) == TARGET
    with pytest.raises(DataError, match="'line' is missing"):
        kind.normalise_target(_Task(), {k: v for k, v in TARGET.items() if k != "line"})
    sample = Sample("s1", "prompt", TARGET)
    assert kind.null_answer(_Task(), sample) == TARGET["original"]
    assert kind.oracle_answer(_Task(), sample) is None


def test_the_prompt_holds_the_path_the_file_and_the_diagnostic():
    row = {
        "file_path": "pkg/mod.py",
        "language": "python",
        "file": "import os\nprint(x)",
        "analyzer": "pylint",
        "rule": "undefined-variable",
        "message": "Undefined variable 'x'",
    }
    text = prompt_input(row, 2)
    assert text.startswith("File pkg/mod.py (python):\n```python\nimport os\nprint(x)\n```\n")
    assert text.endswith("pylint reports undefined-variable at line 2: Undefined variable 'x'")


def test_without_a_sandbox_the_prepare_step_says_why_instead_of_keeping_nothing(monkeypatch):
    from seebench.errors import SeebenchError
    from seebench.sandbox import UnavailableSandbox
    from seebench.suites.copilot.fix import reproduce
    from seebench.suites.copilot.fix.types import copilot_fix_reproducible

    monkeypatch.setattr(
        reproduce, "open_analyzer_sandbox", lambda *a, **k: UnavailableSandbox("no bwrap here")
    )
    row = {
        "case_id": "case-1",
        "analyzer": "pylint",
        "rule": "undefined-variable",
        "message": "Undefined variable 'x'",
        "language": "python",
        "file_path": "pkg/mod.py",
        "recorded_line": 2,
        "file": "import os\nprint(x)\n",
        "file_error": None,
    }
    with pytest.raises(SeebenchError, match="pylint could analyse no case: sandbox_unavailable"):
        copilot_fix_reproducible([row])
