"""The python_tests scorer: verdicts, logs, one pool per unit, fail-closed, --unsafe-host-exec."""

from __future__ import annotations

import json

import pytest

from seebench.data.dataset import Sample
from seebench.plugin_manager import get_task_index
from seebench.scoring import ScoreContext
from seebench.scoring.python_tests import PythonTestsScorer

PROMPT = 'def add(a, b):\n    """Return a + b."""\n'
TESTS = "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(-1, 1) == 0\n"
SAMPLE = Sample(
    "s1", PROMPT, {"entry_point": "add", "tests": TESTS, "reference": "    return a + b\n"}
)


def context(tmp_path):
    return ScoreContext(task=get_task_index().get("humaneval"), artifacts=tmp_path / "artifacts")


def test_verdicts_metadata_and_logs(tmp_path, sandbox_ok):
    scorer = PythonTestsScorer(cpu_s=1, wall_s=5, workers=2)
    answers = [
        "    return a + b\n",
        "    return a - b\n",
        "    while True:\n        pass\n",
        "    print('ALL TESTS PASSED')\n    raise SystemExit(0)\n",
        None,
    ]
    try:
        scores = scorer.score_many([(SAMPLE, a) for a in answers], context(tmp_path))
    finally:
        scorer.close()
    assert [s.value for s in scores] == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert [s.metadata["verdict"] for s in scores] == [
        "passed",
        "failed",
        "timeout",
        "error",  # SystemExit from the candidate is its error, never the tests' exit
        "failed",
    ]
    assert scores[4].metadata["sandbox_verdict"] == "no_code"
    passed, failed = scores[0], scores[1]
    assert passed.explanation is None and passed.metadata["sandbox"].startswith("bwrap")
    assert (
        failed.explanation.startswith("failed:") and "AssertionError" in failed.metadata["stderr"]
    )
    log = json.loads((tmp_path / "artifacts" / failed.metadata["log"]).read_text())
    assert log["candidate"] == PROMPT + answers[1]
    assert log["tests"] == TESTS + "\n\ncheck(add)\n"
    assert log["isolation"] == "separate-process" == failed.metadata["isolation"]
    assert log["result"]["verdict"] == "failed" and log["limits"]["cpu_s"] == 1


def test_one_pool_serves_every_sample_until_closed(tmp_path, sandbox_ok):
    scorer = PythonTestsScorer(cpu_s=2, wall_s=10)
    ctx = context(tmp_path)
    assert scorer.score(SAMPLE, "    return a + b\n", ctx).value == 1.0
    pool = scorer._sandbox
    assert scorer.score(SAMPLE, "    return b + a\n", ctx).value == 1.0
    assert scorer._sandbox is pool and pool.available
    scorer.close()
    assert scorer._sandbox is None and pool._closed


def test_identity_names_the_mechanism_and_limits(sandbox_ok):
    base = PythonTestsScorer().identity()
    assert base["sandbox"].startswith("bwrap") and base["bwrap_version"]
    assert PythonTestsScorer(cpu_s=7).identity() != base
    unsafe = PythonTestsScorer()
    unsafe.configure({"unsafe_host_exec": True})
    assert unsafe.identity()["sandbox"] == "none"


def test_without_bwrap_samples_are_unscored_with_the_reason(tmp_path):
    scorer = PythonTestsScorer(bwrap=str(tmp_path / "no-such-bwrap"))
    assert scorer.identity()["sandbox"] == "unavailable"
    scores = scorer.score_many([(SAMPLE, "    return a + b\n"), (SAMPLE, None)], context(tmp_path))
    scorer.close()
    assert scores[0].value is None and scores[0].metadata["verdict"] == "infra_error"
    assert scores[0].explanation.startswith("sandbox_unavailable: no bwrap executable found")
    assert scores[1].value == 0.0  # no code at all is the model's failure, sandbox or not


def test_unsafe_host_exec_runs_on_the_host_and_says_sandbox_none(tmp_path):
    scorer = PythonTestsScorer(cpu_s=2, wall_s=10, bwrap=str(tmp_path / "no-such-bwrap"))
    scorer.configure({"unsafe_host_exec": True})
    try:
        scores = scorer.score_many(
            [(SAMPLE, "    return a + b\n"), (SAMPLE, "    return 0\n")], context(tmp_path)
        )
    finally:
        scorer.close()
    assert [s.value for s in scores] == [1.0, 0.0]
    assert {s.metadata["sandbox"] for s in scores} == {"none"}


@pytest.mark.parametrize(
    "options, message",
    [
        ({"cpu_s": 0}, "cpu_s=0 is invalid"),
        ({"workers": "two"}, "workers='two' is invalid"),
        ({"cpus": 1}, "unknown option 'cpus'"),
        ({"helpers": "tests"}, "helpers='tests' is invalid"),
    ],
)
def test_options_are_checked_against_their_schemas(options, message):
    from seebench.plugin_manager import get_registry

    [problem] = get_registry().scorer("python_tests").option_problems(options)
    assert message in problem


class _FlakySandbox:
    """Answers ``sandbox_unavailable`` (an infrastructure failure) ``failures`` times per
    request, then ``passed``."""

    available = True

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.runs = 0

    def run_many(self, requests):
        from seebench.sandbox import SandboxResult

        self.runs += 1
        verdict = "sandbox_unavailable" if self.runs <= self.failures else "passed"
        return [SandboxResult(verdict, reason="worker did not start") for _ in requests]

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    "failures, value, verdict, attempts",
    [(2, 1.0, "passed", 3), (3, None, "infra_error", 3), (0, 1.0, "passed", 1)],
)
def test_infrastructure_errors_are_retried_then_unscored(
    tmp_path, failures, value, verdict, attempts
):
    scorer = PythonTestsScorer()
    scorer._sandbox = box = _FlakySandbox(failures)
    [score] = scorer.score_many([(SAMPLE, "    return a + b\n")], context(tmp_path))
    assert (score.value, score.metadata["verdict"], score.metadata["attempts"]) == (
        value,
        verdict,
        attempts,
    )
    assert box.runs == attempts
    if value is None:  # unscored, never the model's 0, with the reason
        assert score.explanation.startswith("sandbox_unavailable: worker did not start")


def test_helpers_option_names_its_semantics():
    assert PythonTestsScorer().identity()["helpers"] == "prompt"
    with pytest.raises(ValueError, match="helpers='everything'"):
        PythonTestsScorer(helpers="everything")
