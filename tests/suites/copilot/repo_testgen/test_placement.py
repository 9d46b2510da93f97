from __future__ import annotations

from seebench.suites.copilot.repo_testgen import placement
from seebench.suites.copilot.repo_testgen.oracle import choose_module, covering_tests, js_oracle


def test_python_paths_sit_next_to_the_focal_file(target):
    place = placement.python_placement(target, "def test_x(): pass\n", None)
    assert place.test_file == "pkg/test_seebench_add.py"
    assert set(place.changes) == {"pkg/test_seebench_add.py", "pkg/conftest.py"}
    root = {**target, "file_path": "calc.py"}
    assert placement.python_placement(root, "", None, trivial=True).test_file == (
        "test_seebench_trivial.py"
    )


def test_the_hook_is_appended_to_an_existing_conftest(target):
    place = placement.python_placement(target, "x", "OWN = 1\n")
    assert place.changes["pkg/conftest.py"].startswith("OWN = 1\n")


def test_trace_reports_are_read_from_any_process():
    mark = placement.TRACE_MARK
    assert placement.read_trace("noise") is None
    text = f'{mark}{{"invoked": false}}\n{mark}{{"invoked": true}}\n'
    assert placement.read_trace(text) is True
    assert placement.read_trace(f'{mark}{{"invoked": false}}\n{mark}not json') is False


def test_js_placement_appends_to_the_focal_file(target):
    js = {**target, "language": "javascript", "file_path": "src/a.js"}
    place = placement.js_placement(js, "it('x', () => {});", "const a = 1;")
    assert place.test_file == "src/a.js"
    assert place.changes["src/a.js"].startswith("const a = 1;\n")
    assert place.changes["src/a.js"].rstrip().endswith("it('x', () => {});")


def test_js_invocation_needs_a_body_line_covered_by_a_test_of_the_focal_file():
    cov = {"src/a.js": {3: frozenset({"src/a.js::suite > t"}), 2: frozenset({"other.js::t"})}}
    assert placement.covered_by(cov, "src/a.js", 2, 4, "src/a.js") is True
    assert placement.covered_by(cov, "src/a.js", 1, 2, "src/a.js") is False
    assert placement.covered_by(None, "src/a.js", 2, 4, "src/a.js") is None


def test_covering_tests_are_the_passing_tests_of_body_lines():
    cov = {"pkg/calc.py": {4: frozenset({"t.py::a"}), 5: frozenset({"t.py::b", "u.py::c"})}}
    passing = frozenset({"t.py::b", "u.py::c", "t.py::a"})
    # line 4 is the def line: executing it (at import) is not a call
    assert covering_tests(cov, passing, "pkg/calc.py", 4, 7) == ["t.py::b", "u.py::c"]
    assert covering_tests(cov, frozenset({"u.py::c"}), "pkg/calc.py", 4, 7) == ["u.py::c"]


def test_the_oracle_module_holds_most_covering_tests_and_is_never_the_focal_file():
    assert choose_module(["b.py::x", "a.py::y", "b.py::z"], "f.py") == "b.py"
    assert choose_module(["b.py::x", "a.py::y"], "f.py") == "a.py"
    assert choose_module(["f.py::x"], "f.py") is None
    assert choose_module(["b.py::x", "a.py::y"], "f.py", frozenset({"a.py::z"})) == "b.py"


def test_the_js_oracle_loads_the_test_module_from_the_focal_file():
    assert js_oracle("test/unit/x.test.js", "lib/a.js", "javascript").endswith(
        '\nrequire("../test/unit/x.test.js");\n'
    )
    assert js_oracle("src/a.spec.ts", "src/a.ts", "typescript").endswith('\nimport "./a.spec";\n')
    assert 'import "./__tests__/b.test"' in js_oracle("__tests__/b.test.tsx", "b.ts", "typescript")


def test_a_jest_environment_pragma_of_the_answer_opens_the_focal_file_on_its_first_line():
    target = {"file_path": "src/a.ts"}
    focal = "export const a = 1;\nexport function f() {\n  return a;\n}\n"
    answer = "/**\n * @jest-environment jsdom\n */\nimport './a.spec';\n"
    text = placement.js_placement(target, answer, focal).changes["src/a.ts"]
    lines = text.splitlines()
    assert lines[0] == "/** @jest-environment jsdom */ export const a = 1;"
    assert lines[1:4] == focal.splitlines()[1:4]  # the focal lines do not move
    assert text.endswith(answer.strip() + "\n")
    plain = placement.js_placement(target, "import './a.spec';", focal).changes["src/a.ts"]
    assert plain.startswith(focal)
    assert placement.jest_environment("// x\n/** @jest-environment jsdom */") is None
    assert js_oracle("test/a.spec.ts", "src/a.ts", "typescript", "jsdom").startswith(
        "/** @jest-environment jsdom */\n"
    )


def test_the_js_oracle_switches_off_the_tests_that_failed_at_baseline():
    answer = js_oracle("test/a.test.js", "lib/a.js", "javascript", skip=["A > b"])
    loader, rest = answer.split('require("../test/a.test.js");\n', 1)
    assert 'new Set(["A > b"])' in rest and "child.mode = 'skip'" in rest  # after the load
    assert "Set(" not in js_oracle("test/a.test.js", "lib/a.js", "javascript", skip=[])
