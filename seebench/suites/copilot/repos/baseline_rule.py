"""The baseline rule: when a failed run of a whole-file runner still counts as a pass.

jest, mocha, vitest and ``node --test`` run whole test files, so a run of an item's
covering tests also runs the other tests of their files, and a test that already failed on
the unchanged repository (the environment's ``failing``, from its baseline runs) fails again
whatever the answer. Those runners are not tamper-evident (their report is read as it
stands, see ``docs/sandbox.md``, "Repository suites"), and for them a ``failed`` run is a
pass when all of this holds:

- the runner reported (an exit status and per-test outcomes: not killed, not timed out);
- every failed or errored outcome is one of the environment's baseline failures: a test
  that passed at baseline (or is new) and fails now fails the run;
- every baseline test of the files that ran (``passing`` and ``failing``) has an outcome:
  a run where tests vanished or did not run is not a pass;
- every test the caller named (an id with ``::``) ran and passed;
- at least one test failed and the exit status is the one the runner gives for that many
  failing tests (jest 1, mocha their count): a crash, an open handle or a coverage
  threshold on top of the baseline failures changes the status and fails the run.

pytest runs (tamper-evident: only the named tests run) keep the strict rule: the run itself
must pass. The rule is applied by :func:`seebench.suites.copilot.repos.testrun.run_tests`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from seebench.suites.copilot.repos.runners import Runner
from seebench.suites.copilot.repos.types import RepoEnv, TestRun

FAILING = ("failed", "error")


def file_of(test_id: str) -> str:
    """The file part of a test id (``<file>::<title>``; a file-level id is the file)."""
    return test_id.split("::", 1)[0]


def expected_tests(env: RepoEnv, tests: Sequence[str]) -> frozenset[str]:
    """The baseline tests a run of ``tests`` (ids or files; none: the whole suite) must
    report: every passing or failing baseline test of the files that run."""
    known = env.passing | env.failing
    if not tests:
        return known
    files = {file_of(test) for test in tests}
    return frozenset(test for test in known if file_of(test) in files)


def baseline_problem(
    run: TestRun, env: RepoEnv, runner: Runner, tests: Sequence[str]
) -> str | None:
    """Why ``run`` (verdict ``failed``) is not a pass by the baseline rule; ``None``: it is."""
    if run.exit is None:
        return "the runner gave no exit status"
    bad = sorted(test for test, outcome in run.outcomes.items() if outcome in FAILING)
    new = [test for test in bad if test not in env.failing]
    if new:
        return f"{len(new)} failing test(s) did not fail at baseline (first: {new[0]})"
    missing = sorted(expected_tests(env, tests) - run.outcomes.keys())
    if missing:
        return f"{len(missing)} baseline test(s) did not run (first: {missing[0]})"
    named = [test for test in tests if "::" in test and not run.passed(test)]
    if named:
        return f"{len(named)} named test(s) did not pass (first: {named[0]})"
    if not bad:
        return f"exit status {run.exit} with no failing test"
    expected_exit = runner.failure_exit(len(bad))
    if run.exit != expected_exit:
        return (
            f"exit status {run.exit}, not the {expected_exit} of {len(bad)} baseline "
            "failure(s) alone"
        )
    return None


def judge_by_baseline(
    run: TestRun, env: RepoEnv, runner: Runner, tests: Sequence[str] = ()
) -> TestRun:
    """``run`` as the baseline rule judges it: a ``failed`` run of a runner that is not
    tamper-evident becomes ``passed`` (with ``baseline_failures``) when the rule holds, and
    keeps its verdict, with the rule's objection added to its reason, when it does not.
    Runs of tamper-evident runners, runs that did not end ``failed`` and runs of an
    environment without a baseline yet (no passing test: being built) are returned as
    they are."""
    if runner.tamper_evident or run.verdict != "failed" or not env.passing:
        return run
    problem = baseline_problem(run, env, runner, tests)
    if problem is not None:
        return replace(run, reason=f"{run.reason}; not explained by the baseline: {problem}")
    bad = tuple(sorted(t for t, o in run.outcomes.items() if o in FAILING))
    reason = f"passed by the baseline rule: {len(bad)} test(s) failed at baseline too"
    return replace(run, verdict="passed", reason=reason, baseline_failures=bad)
