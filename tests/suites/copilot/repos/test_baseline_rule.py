"""The baseline rule: a whole-file runner's run passes when its only failures are the
environment's baseline failures, its exit status is theirs and no baseline test vanished;
pytest keeps the strict rule."""

from __future__ import annotations

from dataclasses import replace

from seebench.suites.copilot.repos.baseline_rule import expected_tests, judge_by_baseline
from seebench.suites.copilot.repos.runners import RUNNERS
from seebench.suites.copilot.repos.testrun import run_tests
from seebench.suites.copilot.repos.types import RepoEnv
from seebench.suites.copilot.repos.types import TestRun as Run

SPEC = "test/a.spec.ts"
X, Y, BAD, OTHER = f"{SPEC}::s > x", f"{SPEC}::s > y", f"{SPEC}::s > bad", "test/b.spec.ts::z"
ENV = RepoEnv(
    slug="tiny+spec@" + "0" * 40,
    repo="tiny/spec",
    commit="0" * 40,
    language="typescript",
    status="ready",
    runner="jest",
    passing=frozenset({X, Y, OTHER}),
    failing=frozenset({BAD}),
)
JEST, MOCHA, PYTEST = RUNNERS["jest"], RUNNERS["mocha"], RUNNERS["pytest"]


def failed(exit: int | None = 1, **outcomes: str) -> Run:
    """A ``failed`` run with the outcomes given as x=..., y=..., bad=..."""
    ids = {"x": X, "y": Y, "bad": BAD, "other": OTHER}
    return Run(
        "failed",
        outcomes={ids[key]: value for key, value in outcomes.items()},
        reason="1 failed",
        exit=exit,
    )


def test_a_run_whose_only_failures_failed_at_baseline_passes():
    run = judge_by_baseline(failed(x="passed", y="passed", bad="failed"), ENV, JEST, [X])
    assert run.verdict == "passed"
    assert run.baseline_failures == (BAD,)
    assert "baseline" in run.reason


def test_a_test_that_passed_at_baseline_and_fails_now_fails_the_run():
    run = judge_by_baseline(failed(x="passed", y="failed", bad="failed"), ENV, JEST, [X])
    assert run.verdict == "failed" and Y in run.reason
    assert run.baseline_failures == ()
    errored = judge_by_baseline(failed(x="passed", y="error", bad="passed"), ENV, JEST, [X])
    assert errored.verdict == "failed"
    file_error = Run("failed", outcomes={X: "passed", Y: "passed", SPEC: "error"}, exit=1)
    assert judge_by_baseline(file_error, ENV, JEST, [X]).verdict == "failed"


def test_a_run_where_baseline_tests_vanished_does_not_pass():
    run = judge_by_baseline(failed(x="passed", bad="failed"), ENV, JEST, [X])  # y never ran
    assert run.verdict == "failed" and Y in run.reason
    # a whole-suite run (no tests named) must report every file's baseline tests
    whole = judge_by_baseline(failed(x="passed", y="passed", bad="failed"), ENV, JEST, [])
    assert whole.verdict == "failed" and OTHER in whole.reason
    assert expected_tests(ENV, [X]) == {X, Y, BAD}
    assert expected_tests(ENV, []) == {X, Y, BAD, OTHER}


def test_an_exit_status_the_baseline_failures_do_not_explain_does_not_pass():
    run = failed(exit=2, x="passed", y="passed", bad="failed")
    crashed = judge_by_baseline(run, ENV, JEST, [X])
    assert crashed.verdict == "failed" and "exit status 2" in crashed.reason
    # all tests passing but the process exiting 1 (node-cron's Wasm crash before the fix)
    clean = judge_by_baseline(failed(x="passed", y="passed", bad="passed"), ENV, JEST, [X])
    assert clean.verdict == "failed" and "no failing test" in clean.reason
    silent = failed(exit=None, x="passed", y="passed", bad="failed")
    assert judge_by_baseline(silent, ENV, JEST, [X]).verdict == "failed"


def test_mocha_exits_with_the_number_of_its_failures():
    env = replace(ENV, runner="mocha", failing=frozenset({BAD, Y}))
    both = failed(exit=2, x="passed", y="failed", bad="failed")
    assert judge_by_baseline(both, env, MOCHA, [X]).verdict == "passed"
    wrong = failed(exit=1, x="passed", y="failed", bad="failed")
    assert judge_by_baseline(wrong, env, MOCHA, [X]).verdict == "failed"


def test_a_named_test_must_pass_even_when_it_failed_at_baseline():
    run = judge_by_baseline(failed(x="passed", y="passed", bad="failed"), ENV, JEST, [BAD])
    assert run.verdict == "failed" and BAD in run.reason


def test_pytest_and_unfinished_runs_keep_their_verdicts():
    run = failed(x="passed", y="passed", bad="failed")
    assert judge_by_baseline(run, ENV, PYTEST, [X]) is run
    timeout = Run("timeout", outcomes={X: "passed", BAD: "failed"}, exit=1)
    assert judge_by_baseline(timeout, ENV, JEST, [X]) is timeout
    building = replace(ENV, passing=frozenset(), failing=frozenset())  # its baseline runs
    assert judge_by_baseline(run, building, JEST, [X]) is run


# end to end: the tiny node --test repository, whose calc > halves fails at baseline
CALC = "test/calc.test.js"
BROKEN_ADD = "function add(a, b) {\n  return a - b;\n}\n\nfunction half(a) {\n  return Math.floor(a / 3);\n}\n\nmodule.exports = { add, half };\n"


def test_a_real_run_with_only_its_baseline_failure_passes(node_env):
    repo, env = node_env
    assert env.failing == {f"{CALC}::calc > halves"}
    run = run_tests(env, tests=[f"{CALC}::calc > adds"])
    assert run.exit == 1 and run.outcomes[f"{CALC}::calc > halves"] == "failed"
    assert run.verdict == "passed"
    assert run.baseline_failures == (f"{CALC}::calc > halves",)


def test_a_real_run_that_breaks_a_baseline_passing_test_fails(node_env):
    repo, env = node_env
    run = run_tests(env, changes={"lib/calc.js": BROKEN_ADD}, tests=[f"{CALC}::calc > adds"])
    assert run.verdict == "failed"
    assert run.outcomes[f"{CALC}::calc > adds"] == "failed"
