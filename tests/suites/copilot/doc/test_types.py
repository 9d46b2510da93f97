"""The copilot_doc task type: reading answers, the null and oracle answers."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from seebench.data.dataset import Sample
from seebench.suites.copilot.doc.types import DocType, parse_fenced_code


def test_one_fenced_block_is_the_answer_with_its_indentation():
    reply = "Here it is:\n```python\n    def f():\n        return 1\n```\nDone."
    assert parse_fenced_code(reply, "python").value == "    def f():\n        return 1"
    assert parse_fenced_code("```cs\nint F() => 1;\n```", "csharp").value == "int F() => 1;"
    assert parse_fenced_code("def f():\n    pass\n", "python").value == "def f():\n    pass"


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("", "empty reply"),
        ("```python\ndef f(): pass\n", "unclosed code block"),
        ("```python\na\n```\n```python\nb\n```", "2 code blocks"),
        ("```java\nint f() {}\n```", "code block in 'java'; expected python"),
    ],
)
def test_unreadable_replies_are_errors(reply, error):
    parsed = parse_fenced_code(reply, "python")
    assert parsed.value is None and error in parsed.error


def test_null_and_oracle_answers_come_from_the_case():
    task = SimpleNamespace(name="t", raw={"language": "java"})
    sample = Sample("s", "input", {"case_id": "case-1", "function": "void f() {}", "oracle": None})
    doc = DocType()
    assert doc.null_answer(task, sample) == "void f() {}"
    assert doc.oracle_answer(task, sample) is None
    fmt = doc.answer_format(task)
    assert "Javadoc" in fmt.instruction and "```java" in fmt.instruction
