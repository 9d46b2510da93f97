"""The comment_line reference edit."""

from __future__ import annotations

from seebench.suites.copilot.repo_fix.reference import comment_out


def test_the_flagged_line_is_commented_after_its_indentation():
    python = "def f():\n    return unicode(x)\n"
    assert comment_out(python, 2, "python") == "def f():\n    # return unicode(x)\n"
    js = "function f() {\n\treturn y;\n}\n"
    assert comment_out(js, 2, "javascript") == "function f() {\n\t// return y;\n}\n"
    assert comment_out("let a: number = 's'", 1, "typescript") == "// let a: number = 's'"


def test_no_edit_without_such_a_line_or_a_line_comment():
    assert comment_out("x = 1\n", 2, "python") is None
    assert comment_out("x = 1\n", 0, "python") is None
    assert comment_out("int x;\n", 1, "cpp") is None
