"""Analyzer directives in comments: which ones are found, and which an edit adds."""

from __future__ import annotations

import pytest

from seebench.suites.copilot.fix.suppressions import added_directives, directives

PYTHON = """import os  # noqa: F401
x = "# noqa"  # a string is not a comment
y = os.nope  # pylint: disable=no-member
z = 1  # type: ignore[attr-defined]  # noqa
# a note, then pylint:disable-next=unused-variable
w = 2  # pyright: ignore[reportAttributeAccessIssue]
v: int = 3  # type: int
u = 4  # pyright: strict
"""

SCRIPT = """// eslint-disable-next-line no-undef
foo(); // eslint-disable-line
/* global $, jQuery */
/*eslint no-undef: "off"*/
/**
 * @ts-ignore
 */
/**
 * global state lives here (a JSDoc line, not a directive)
 */
// this sentence mentions eslint-disable in prose
// @ts-expect-error the next line is wrong on purpose
const s = "// eslint-disable";
/* eslint-enable */
/// @ts-nocheck
"""


def _texts(source: str, language: str) -> list[tuple[str, int]]:
    return [(d.text, d.line) for d in directives(source, language)]


def test_python_directives_are_found_in_comments_only():
    assert _texts(PYTHON, "python") == [
        ("noqa: F401", 1),
        ("pylint: disable=no-member", 3),
        ("type: ignore[attr-defined]", 4),
        ("noqa", 4),
        ("pylint:disable-next=unused-variable", 5),
        ("pyright: ignore[reportAttributeAccessIssue]", 6),
    ]


@pytest.mark.parametrize("language", ["javascript", "typescript"])
def test_eslint_and_typescript_directives_are_found_where_the_tools_read_them(language):
    assert _texts(SCRIPT, language) == [
        ("eslint-disable-next-line no-undef", 1),
        ("eslint-disable-line", 2),
        ("global $, jQuery", 3),
        ('eslint no-undef: "off"', 4),
        ("@ts-ignore", 6),
        ("@ts-expect-error the next line is wrong on purpose", 12),
        ("@ts-nocheck", 15),
    ]


def test_a_directive_the_original_had_may_move_with_its_line():
    original = "import os\nx = os.nope  # pylint: disable=no-member\n"
    edited = "import os\n\n\nx = os.nope  # pylint: disable=no-member\n"
    assert added_directives(original, edited, "python") == []


def test_an_added_or_widened_directive_is_new():
    original = "import os\nx = os.nope  # pylint: disable=no-member\ny = 1\n"
    widened = original.replace("no-member", "no-member,undefined-variable")
    [added] = added_directives(original, widened, "python")
    assert (added.text, added.line) == ("pylint: disable=no-member,undefined-variable", 2)
    second = original.replace("y = 1", "y = q  # type: ignore")
    assert [d.text for d in added_directives(original, second, "python")] == ["type: ignore"]


def test_a_removed_directive_is_not_counted_and_other_languages_have_none():
    original = "// eslint-disable-next-line no-undef\nfoo();\n"
    assert added_directives(original, "foo();\n", "javascript") == []
    assert directives("// @ts-ignore\nint x;\n", "java") == []
