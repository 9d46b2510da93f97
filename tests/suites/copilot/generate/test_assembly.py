"""Answers put back in place: a body for the placeholder or the whole definition."""

from __future__ import annotations

from seebench.suites.copilot.generate.assembly import assemble, definition_text

TARGET = {
    "entry_point": "inc",
    "context": 'import math\n\ndef inc(x):\n    """Add one."""\n    # Your code here\n\nprint(1)\n',
    "placeholder": "    # Your code here",
}


def test_a_body_replaces_the_placeholder_at_its_indentation():
    built = assemble(TARGET, "return x + 1\n")
    assert built.mode == "body"
    assert (
        built.source
        == 'import math\n\ndef inc(x):\n    """Add one."""\n    return x + 1\n\nprint(1)\n'
    )
    indented = assemble(TARGET, "        y = x\n        return y + 1")
    assert "    y = x\n    return y + 1\n" in indented.source


def test_a_whole_definition_replaces_the_shown_one_and_keeps_the_rest():
    built = assemble(TARGET, "import os\n\ndef inc(x):\n    return x + 1\n")
    assert built.mode == "definition"
    assert built.source == "import math\n\nimport os\n\ndef inc(x):\n    return x + 1\n\nprint(1)\n"


def test_answers_that_cannot_be_placed_say_why():
    assert assemble(TARGET, "").error == "no code (empty or invalid answer)"
    assert assemble(TARGET, None).source is None
    no_placeholder = {**TARGET, "placeholder": None}
    assert "whole definition of 'inc'" in assemble(no_placeholder, "return 1").error


def test_the_null_answer_is_the_definition_as_shown():
    null = definition_text(TARGET)
    assert null == 'def inc(x):\n    """Add one."""\n    # Your code here\n'
    assert assemble(TARGET, null).source == TARGET["context"]
