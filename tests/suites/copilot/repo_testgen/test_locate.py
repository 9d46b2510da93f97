from __future__ import annotations

from seebench.suites.copilot.repo_testgen.locate import locate_method

PY = """import functools


class Box:
    @functools.cache
    def size(self):
        return 1

    def other(self):
        return 2


def size():
    return 3
"""

JS = """class A {
  draw() {
    return 1;
  }
}
const paint = (x) => {
  return x;
};
module.exports.fill = function (y) { return y; };
const table = { 'Times-Bold': 1, shade: function () { return 2; } };
module.exports = function initialize(passport, options) {
  return passport;
};
"""


def test_python_method_nearest_to_the_recorded_line_without_its_decorator():
    assert locate_method(PY, "python", "size", 4) == (6, 7)
    assert locate_method(PY, "python", "size", 14) == (13, 14)


def test_javascript_methods_arrows_assignments_and_object_keys():
    assert locate_method(JS, "javascript", "draw", 1) == (2, 4)
    assert locate_method(JS, "javascript", "paint", 5) == (6, 8)
    assert locate_method(JS, "javascript", "fill", 9) == (9, 9)
    assert locate_method(JS, "javascript", "shade", 10) == (10, 10)


def test_a_named_function_assigned_to_module_exports_is_found_by_its_name():
    """``module.exports = function initialize(...)`` (passport, list.js, collect.js,
    cors-anywhere) defines ``initialize``; the anonymous ones stay found by their holder."""
    assert locate_method(JS, "javascript", "initialize", 9) == (11, 13)
    assert locate_method(
        JS.replace("module.exports", "exports.init"), "typescript", "initialize", 12
    ) == (11, 13)


def test_no_definition_near_the_line_is_none():
    assert locate_method(PY, "python", "missing", 4) is None
    assert locate_method(PY, "python", "other", 40) is None
