"""Documented methods whose body can be asked for, per language."""

from __future__ import annotations

from seebench.suites.copilot.repo_generate.methods import documented_methods, grammar_for
from tests.suites.copilot.repo_generate.support import MODULE

JS = """/**
 * Send a body.
 */
res.send = function send(body) {
  var chunk = body;
  return chunk;
};

/** Identity. */
const same = (a) => {
  return a;
};

class Box {
  /** The value. */
  get() {
    return this.value;
  }

  /** One line. */
  one() { return 1 }

  undocumented() {
    return 2;
  }
}

/** Empty. */
function nothing() {
}
"""


def test_python_methods_with_a_docstring_and_a_body_of_their_own_lines():
    found = {m.name: m for m in documented_methods(MODULE, "pkg/toolkit.py")}
    assert sorted(found) == ["Words.banner", "Words.count", "slug", "unused"]
    count = found["Words.count"]
    lines = MODULE.splitlines()
    assert lines[count.start_line - 1].strip() == "def count(self):"
    assert lines[count.body_start - 1] == "        return len(self.text.split())"
    assert count.body_end == count.body_start and count.indent == " " * 8
    banner = found["Words.banner"]
    assert lines[banner.body_end - 1] == '{line}"""'  # the string's last line ends the body
    assert found["slug"].placeholder("python") == "    # Your code here"


def test_javascript_declarations_methods_and_assigned_functions_with_jsdoc():
    found = {m.name: m for m in documented_methods(JS, "lib/response.js")}
    assert sorted(found) == ["Box.get", "res.send", "same"]
    lines = JS.splitlines()
    send = found["res.send"]
    assert lines[send.body_start - 1 : send.body_end] == ["  var chunk = body;", "  return chunk;"]
    assert found["Box.get"].placeholder("javascript") == "    // Your code here"
    assert [m.name for m in documented_methods(JS, "src/box.ts")] == ["res.send", "same", "Box.get"]


def test_other_files_and_unparsable_files_give_nothing():
    assert grammar_for("types/index.d.ts") is None
    assert documented_methods(MODULE, "README.md") == []
    assert documented_methods("def f(:\n    '''d'''\n    return 1\n", "x.py") == []
