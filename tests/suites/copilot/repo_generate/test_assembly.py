"""Answers put back in place of a repository method's body."""

from __future__ import annotations

from seebench.suites.copilot.repo_generate.assembly import place_answer

CONTEXT = (
    "class Words:\n"
    "    def count(self):\n"
    '        """How many words."""\n'
    "        # Your code here\n"
    "\n"
    "    def other(self):\n"
    "        return 1\n"
)
TARGET = {
    "language": "python",
    "name": "Words.count",
    "file": "toolkit.py",
    "context": CONTEXT,
    "placeholder": "        # Your code here",
}
EXPECTED = CONTEXT.replace("        # Your code here\n", "        return len(self.text.split())\n")


def test_a_body_at_any_indentation_goes_to_the_placeholders():
    for answer in ("return len(self.text.split())", "    return len(self.text.split())\n"):
        built = place_answer(TARGET, answer)
        assert (built.source, built.mode) == (EXPECTED, "body")


def test_a_whole_method_gives_its_body_without_a_repeated_docstring():
    answer = 'def count(self):\n    """How many words."""\n    return len(self.text.split())\n'
    built = place_answer(TARGET, answer)
    assert (built.source, built.mode) == (EXPECTED, "definition")
    in_class = (
        "class Words:\n    @property\n    def count(self):\n        return len(self.text.split())"
    )
    assert place_answer(TARGET, in_class).source == EXPECTED


def test_lines_left_of_the_first_keep_their_text():
    body = '        x = """a\nb"""\n        return x\n'
    built = place_answer(TARGET, body)
    assert '        x = """a\nb"""\n        return x\n' in built.source


def test_javascript_whole_functions_and_bodies():
    context = "class Box {\n  get() {\n    // Your code here\n  }\n}\n"
    target = {**TARGET, "language": "javascript", "name": "Box.get", "context": context,
              "placeholder": "    // Your code here"}  # fmt: skip
    want = "class Box {\n  get() {\n    return this.value;\n  }\n}\n"
    assert place_answer(target, "return this.value;").source == want
    whole = "/** The value. */\nget() {\n  return this.value;\n}"
    assert place_answer(target, whole).source == want
    assert place_answer(target, "if (get(x)) {\n  return 1;\n}").mode == "body"


def test_answers_that_cannot_be_placed_say_why():
    assert place_answer(TARGET, "  ").error == "no code (empty or invalid answer)"
    assert place_answer(TARGET, 'def count(self):\n    """Only."""\n').error == (
        "the answer's function has no body"
    )
