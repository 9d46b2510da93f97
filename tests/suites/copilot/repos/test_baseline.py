"""The readiness of an environment follows the per-test outcomes of its baseline runs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from importlib import resources

from seebench.suites.copilot.repos import envs
from seebench.suites.copilot.repos.envs import baseline_verdict
from seebench.suites.copilot.repos.types import TestRun as Run

from .conftest import TINY_PYTHON, staged


def run(verdict: str = "failed", reason: str = "", **outcomes: str) -> Run:
    return Run(verdict, outcomes={f"t.py::{k}": v for k, v in outcomes.items()}, reason=reason)


def test_a_suite_that_exits_non_zero_is_ready_with_its_passing_tests():
    first = run(a="passed", b="passed", c="failed", d="skipped", reason="1 failed")
    verdict = baseline_verdict([first, first])
    assert verdict.reason == ""
    assert verdict.passing == {"t.py::a", "t.py::b"}
    assert verdict.failing == {"t.py::c"}
    assert verdict.summary["first_run"] == {"passed": 2, "failed": 1, "error": 0, "skipped": 1}


def test_a_test_that_passes_in_one_run_only_is_not_usable():
    verdict = baseline_verdict([run(a="passed", b="passed"), run(a="passed", b="failed")])
    assert verdict.passing == {"t.py::a"}
    assert verdict.failing == {"t.py::b"}
    missing = baseline_verdict([run(a="passed", b="passed"), run(a="passed")])  # b not reached
    assert missing.passing == {"t.py::a"} and missing.flaky == {"t.py::b"}
    assert missing.summary["flaky"] == 1


def test_the_verdict_does_not_depend_on_the_order_of_the_runs():
    one, two = run(a="passed", b="error", c="passed"), run(a="passed", b="passed", c="skipped")
    a, b = baseline_verdict([one, two]), baseline_verdict([two, one])
    assert (a.passing, a.failing, a.flaky, a.reason) == (b.passing, b.failing, b.flaky, b.reason)
    assert a.passing == {"t.py::a"} and a.failing == {"t.py::b"} and a.flaky == {"t.py::c"}


def test_no_reliable_pass_is_not_ready_and_says_why():
    nothing = baseline_verdict([run(reason="exit status 4: no tests ran")])
    assert nothing.passing == frozenset()
    assert "no test passes offline" in nothing.reason
    assert "no per-test outcome" in nothing.reason
    alternating = baseline_verdict([run(a="passed", b="failed"), run(a="failed", b="passed")])
    assert alternating.passing == frozenset()
    assert "reliably" in alternating.reason and "2 passed in some runs only" in alternating.reason


def test_the_build_runs_the_baseline_twice_and_records_the_stable_tests(tmp_path, monkeypatch):
    """_build with a stand-in builder and test runner: a flaky test is left out, the exit
    status is ignored, and the record keeps the baseline's summary."""
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    repo = staged(tmp_path, TINY_PYTHON)
    runs = iter(
        [
            replace(run(a="passed", b="passed", c="failed", reason="1 failed"), exit=1),
            replace(run(a="passed", b="failed", c="failed", reason="2 failed"), exit=1),
        ]
    )
    calls = []

    def fake_run_tests(env, **options):
        calls.append(options)
        return next(runs)

    monkeypatch.setattr(envs, "jail_available", lambda: "")
    monkeypatch.setattr(envs.python_env, "build_python_env", lambda *a: ({"runner": "pytest"}, ""))
    monkeypatch.setattr("seebench.suites.copilot.repos.testrun.run_tests", fake_run_tests)
    env = envs.ensure_env(repo)
    assert len(calls) == envs.BASELINE_RUNS == 2
    assert all(call["timeout_s"] == envs.BASELINE_TIMEOUT_S for call in calls)
    assert env.status == "ready" and env.reason == ""
    assert env.passing == {"t.py::a"} and env.failing == {"t.py::b", "t.py::c"}
    record = json.loads((env.root / "record.json").read_text())
    assert record["settings"]["baseline"]["runs"] == 2
    assert record["settings"]["baseline"]["flaky"] == 1
    assert record["settings"]["baseline"]["exits"] == [1, 1]
    assert envs.ensure_env(repo, build=False) == env  # the record reads back the same


def test_a_first_run_without_a_pass_is_not_repeated(tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    repo = staged(tmp_path, TINY_PYTHON)
    calls = []

    def fake_run_tests(env, **options):
        calls.append(options)
        return run(a="failed", reason="1 failed")

    monkeypatch.setattr(envs, "jail_available", lambda: "")
    monkeypatch.setattr(envs.python_env, "build_python_env", lambda *a: ({"runner": "pytest"}, ""))
    monkeypatch.setattr("seebench.suites.copilot.repos.testrun.run_tests", fake_run_tests)
    env = envs.ensure_env(repo)
    assert len(calls) == 1
    assert env.status == "failed" and env.reason == "no test passes offline (1 failed)"


def test_the_pytest_plugin_keeps_outcomes_when_a_test_replaces_os_environ(tmp_path):
    """thefuck's ``os_environ`` fixture sets ``os.environ`` to a plain dict: the outcomes of
    that test and of every later one are still recorded."""
    harness = resources.files("seebench.suites.copilot.repos.harness")
    (tmp_path / "seebench_pytest_plugin.py").write_bytes(
        (harness / "seebench_pytest_plugin.py").read_bytes()
    )
    (tmp_path / "test_env.py").write_text(
        "import builtins\nimport os\n\n\n"
        "def test_first():\n    assert True\n\n\n"
        "def test_replaces_environ(monkeypatch):\n"
        "    monkeypatch.setattr('os.environ', {'PATH': os.environ['PATH']})\n"
        "    monkeypatch.setattr(builtins, 'open', None)\n    assert True\n\n\n"
        "def test_fails():\n    assert False\n\n\n"
        "def test_last():\n    assert True\n"
    )
    outcomes = tmp_path / "outcomes.jsonl"
    fd = os.open(outcomes, os.O_WRONLY | os.O_CREAT, 0o600)  # the driver passes a pipe
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "seebench_pytest_plugin"]
            + ["-p", "no:cacheprovider", "-q", "test_env.py"],
            cwd=tmp_path,
            env={**os.environ, "SEEBENCH_OUTCOMES_FD": str(fd), "PYTHONPATH": str(tmp_path)},
            capture_output=True,
            text=True,
            timeout=120,
            pass_fds=(fd,),
        )
    finally:
        os.close(fd)
    assert done.returncode == 1, done.stdout[-2000:]
    lines = [json.loads(line) for line in outcomes.read_text().splitlines()]
    recorded = dict(line for line in lines if isinstance(line, list))
    assert lines[-1]["end"] == 1  # the session's end marker, with pytest's exit status
    assert recorded == {
        "test_env.py::test_first": "passed",
        "test_env.py::test_replaces_environ": "passed",
        "test_env.py::test_fails": "failed",
        "test_env.py::test_last": "passed",
    }
