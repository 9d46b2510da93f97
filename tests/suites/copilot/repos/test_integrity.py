"""Tamper evidence of repository runs, without a sandbox: which changes are refused, how the
driver folds the plugin's channel, which plugin origins it distrusts, and how a report that
is not the driver's own is judged."""

from __future__ import annotations

import json
import sys
from types import SimpleNamespace

import pytest

from seebench.suites.copilot.repos.harness import pytest_driver
from seebench.suites.copilot.repos.integrity import is_infrastructure, refused_changes
from seebench.suites.copilot.repos.runners import PytestRunner
from seebench.suites.copilot.repos.testrun import judge_run

TESTS = ["tests/test_calc.py::test_add"]


@pytest.mark.parametrize(
    "path",
    [
        "conftest.py",
        "tests/deep/conftest.py",
        "pytest.ini",
        "pyproject.toml",
        "setup.cfg",
        "tox.ini",
        "sitecustomize.py",
        "src/evil.pth",
        "evil-1.0.dist-info/entry_points.txt",
        "jest.config.js",
        ".mocharc.yml",
        "package.json",
    ],
)
def test_test_infrastructure_is_refused(path):
    assert is_infrastructure(path)
    assert refused_changes({path: "x"}, TESTS) == [path]


def test_source_files_and_the_answers_test_file_may_change():
    changes = {"src/calc.py": "x", "tests/test_new.py": "y"}
    assert refused_changes(changes, [*TESTS, "tests/test_new.py"], ["tests/test_new.py"]) == []


def test_the_tests_being_run_may_not_change():
    assert refused_changes({"tests/test_calc.py": "x"}, TESTS) == ["tests/test_calc.py"]
    # a whole-suite run protects every test file
    assert refused_changes({"tests/test_other.py": "x"}, []) == ["tests/test_other.py"]
    # an answer's test file is still held to the infrastructure rule
    assert refused_changes({"conftest.py": "x"}, [], ["conftest.py"]) == ["conftest.py"]


def _fold(*values) -> dict:
    report = {"outcomes": {}}
    data = "".join(json.dumps(v) + "\n" for v in values).encode()
    pytest_driver.parse_channel(data, report)
    return report


def test_a_failure_once_sent_stays_and_one_end_marker_ends_the_session():
    report = _fold(["t::a", "failed"], ["t::a", "passed"], ["t::b", "passed"], {"end": 1})
    assert report["outcomes"] == {"t::a": "failed", "t::b": "passed"}
    assert report["ended"] and report["session_exit"] == 1


@pytest.mark.parametrize(
    "values",
    [
        [["t::a", "passed"]],  # no end marker: the process ended before pytest did
        [["t::a", "passed"], {"end": 0}, {"end": 0}],  # two markers: one is forged
        [["t::a", "failed"], {"end": 1}, ["t::a", "passed"]],  # an outcome after the end
    ],
)
def test_a_session_that_did_not_end_once_and_last_has_not_ended(values):
    assert not _fold(*values)["ended"]


def test_plugin_origins_from_the_change_or_the_run_are_foreign(tmp_path):
    run_dir = str(tmp_path)
    before = {"conftest.py", "src/calc.py", "tests/helpers.py"}
    origins = [
        f"{run_dir}/.seebench/seebench_pytest_plugin.py",
        f"{run_dir}/conftest.py",
        f"{run_dir}/tests/helpers.py",
        f"{sys.prefix}/lib/site-packages/_pytest/main.py",
        f"{run_dir}/src/calc.py",  # changed by the answer
        f"{run_dir}/made_during_the_run.py",
        "/tmp/elsewhere.py",
        "<forge>",
    ]
    bad = pytest_driver.foreign(origins, run_dir, before, {"src/calc.py"})
    assert bad == ["src/calc.py", "made_during_the_run.py", "/tmp/elsewhere.py", "<forge>"]


def _result(report: dict, exit_code=0, signal=None):
    stdout = pytest_driver.MARKER + json.dumps(report)
    return SimpleNamespace(stdout=stdout, stderr="", verdict="passed", reason="", wall_s=1.0,
                           exit_code=exit_code, signal=signal)  # fmt: skip


GOOD = {"exit": 0, "outcomes": {"t::a": "passed"}, "ended": True, "session_exit": 0,
        "foreign": [], "nonce": "n1", "tail": ""}  # fmt: skip


@pytest.mark.parametrize(
    ("change", "exit_code", "signal", "verdict"),
    [
        ({}, 0, None, "passed"),
        ({"nonce": "forged"}, 0, None, "tampered"),  # printed by someone else
        ({}, None, 9, "tampered"),  # the driver was killed after a report was printed
        ({"foreign": ["src/calc.py"]}, 0, None, "tampered"),
        ({"patched": ["_pytest.reports.TestReport.from_item_and_call"]}, 0, None, "tampered"),
        ({"ended": False}, 0, None, "failed"),  # os._exit before pytest's end of session
        ({"session_exit": 1}, 0, None, "failed"),  # os._exit(0) after a failing session
        ({"timed_out": True, "ended": False}, 0, None, "timeout"),
    ],
)
def test_a_report_is_only_a_pass_when_it_is_the_drivers_and_pytest_ended(
    change, exit_code, signal, verdict
):
    run = judge_run(_result({**GOOD, **change}, exit_code, signal), PytestRunner(), "n1", False)
    assert run.verdict == verdict, run.reason
    assert (run.reason == "") == (verdict == "passed")
