"""run_tests: changes on a private copy, selected tests, coverage per test, bad changes."""

from __future__ import annotations

import pytest

from seebench.errors import SeebenchError
from seebench.suites.copilot.repos.testrun import open_repo_sandbox, parse_report, run_tests

TESTS = "tests/test_calc.py"
FIXED = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n\n\ndef half(a):\n    return a // 2\n"


def test_a_change_is_applied_to_a_copy_only(python_env):
    repo, env = python_env
    with open_repo_sandbox([env]) as sandbox:
        fixed = run_tests(env, changes={"src/tinycalc/__init__.py": FIXED}, sandbox=sandbox)
        again = run_tests(env, sandbox=sandbox)
    assert fixed.verdict == "passed" and fixed.passed(f"{TESTS}::test_half")
    assert again.verdict == "failed" and again.outcomes[f"{TESTS}::test_half"] == "failed"
    assert "test_half" in again.reason


def test_selected_tests_and_a_new_test_file(python_env):
    repo, env = python_env
    new = "from tinycalc import mul\n\n\ndef test_square():\n    assert mul(4, 4) == 16\n"
    run = run_tests(
        env,
        changes={"tests/test_new.py": new},
        tests=["tests/test_new.py", f"{TESTS}::test_add"],
        answer_tests=["tests/test_new.py"],
    )
    assert run.outcomes == {
        "tests/test_new.py::test_square": "passed",
        f"{TESTS}::test_add": "passed",
    }
    assert run.verdict == "passed"


def test_coverage_maps_lines_to_the_tests_that_ran_them(python_env):
    repo, env = python_env
    run = run_tests(env, coverage=True)
    lines = run.coverage["src/tinycalc/__init__.py"]
    assert lines[6] == {f"{TESTS}::test_add"}  # return a + b
    assert lines[11] == {f"{TESTS}::test_mul"}  # return a * b
    assert lines[16] == {f"{TESTS}::test_half"}  # return a // 3
    assert not any(name.startswith(".seebench") for name in run.coverage)


def test_a_syntax_error_fails_collection_not_the_harness(python_env):
    repo, env = python_env
    run = run_tests(env, changes={"src/tinycalc/__init__.py": "def add(:\n"})
    assert run.verdict == "failed"
    assert run.outcomes and all(o == "error" for o in run.outcomes.values())


def test_changes_outside_the_tree_are_refused(python_env):
    repo, env = python_env
    for name in ("../escape.py", "/etc/passwd", ".seebench/pytest_driver.py"):
        with pytest.raises(SeebenchError, match="change"):
            run_tests(env, changes={name: "x"})


def test_a_run_without_a_report_is_not_trusted():
    assert parse_report("all tests passed") is None
    assert parse_report("\n@@SEEBENCH-REPORT@@\n{broken") is None
    assert parse_report('\n@@SEEBENCH-REPORT@@\n{"outcomes": []}') is None
    assert parse_report('\n@@SEEBENCH-REPORT@@\n{"outcomes": {}, "exit": 0}') == {
        "outcomes": {},
        "exit": 0,
    }


def test_a_run_stopped_at_its_time_limit_keeps_the_finished_outcomes(python_env):
    repo, env = python_env
    slow = "import time\n\n\ndef test_slow():\n    time.sleep(120)\n"
    run = run_tests(
        env,
        changes={"tests/test_slow.py": slow},
        tests=[f"{TESTS}::test_add", "tests/test_slow.py"],
        answer_tests=["tests/test_slow.py"],
        timeout_s=15,
    )
    assert run.verdict == "timeout"
    assert run.outcomes == {f"{TESTS}::test_add": "passed"}
    assert "time limit" in run.reason
