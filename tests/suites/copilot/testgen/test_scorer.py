"""The test scorer in the sandbox on a hand-made focal function: pass, traced call, validity,
mutants filtered by the hidden tests and killed by the generated test."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from seebench.scoring.core import ScoreContext
from seebench.suites.copilot.testgen.metrics import invokes_rate, mutation_score, success_rate
from seebench.suites.copilot.testgen.mutants import MutantStore
from seebench.suites.copilot.testgen.scorer import GeneratedTestScorer, TestSyntaxScorer
from seebench.suites.copilot.testgen.types import hidden_tests_as_pytest
from tests.suites.copilot.generate.support import sandbox_or_skip

SOLUTION = "def scale(x, factor=2):\n    if x < 0:\n        return 0\n    return x * factor + 1\n"
HIDDEN = "assert scale(3) == 7\nassert scale(-1) == 0\nassert scale(0, 5) == 1\n"
TARGET = {"entry_point": "scale", "solution": SOLUTION, "tests": HIDDEN}

GOOD = "def test_scale():\n    assert scale(3) == 7\n"
NO_CALL = "def test_nothing():\n    assert 1 + 1 == 2\n"
FAILING = "def test_wrong():\n    assert scale(3) == 6\n"
EXITS = "import os\n\ndef test_exit():\n    os._exit(0)\n"


def _sample(name: str, target: dict = TARGET) -> SimpleNamespace:
    return SimpleNamespace(id=name, target=target, input="")


@pytest.fixture
def scored(tmp_path):
    sandbox_or_skip()
    scorer = GeneratedTestScorer(workers=1, store=MutantStore(tmp_path / "mutants"))
    context = ScoreContext(task=None, artifacts=tmp_path / "artifacts")  # type: ignore[arg-type]

    def run(items):
        try:
            return scorer.score_many(items, context)
        finally:
            scorer.close()

    return run, tmp_path


def test_generated_tests_are_judged_on_pass_call_and_kills(scored):
    run, tmp_path = scored
    answers = [GOOD, NO_CALL, FAILING, "", hidden_tests_as_pytest(HIDDEN), EXITS]
    scores = run([(_sample(f"s{n}"), a) for n, a in enumerate(answers)])
    good, no_call, failing, empty, oracle, exits = scores
    assert good.value == 1.0 and good.metadata["invokes"] is True
    assert good.metadata["mutants"] >= 3 and 0 < good.metadata["mutation_score"] < 1
    assert no_call.value == 1.0 and no_call.metadata["invokes"] is False
    assert no_call.metadata["mutation_score"] == 0.0  # kills nothing
    assert failing.value == 0.0 and failing.metadata["mutation_score"] == 0.0
    assert empty.value == 0.0 and "no test was collected" in empty.explanation
    # the hidden tests kill every kept mutant: they are what keeps a mutant
    assert oracle.value == 1.0 and oracle.metadata["mutation_score"] == 1.0
    assert exits.value == 0.0  # leaving the process early is not a pass
    assert failing.metadata["invokes"] is True  # it calls the function, then fails
    assert invokes_rate(scores) == pytest.approx(3 / 6)
    assert success_rate(scores) == pytest.approx(2 / 6)
    assert mutation_score(scores) == pytest.approx(
        sum(s.metadata["mutation_score"] for s in scores) / 6
    )
    stored = list((tmp_path / "mutants").glob("*.json"))
    assert len(stored) == 1  # one item, one stored set, reused by every answer
    assert (tmp_path / "artifacts" / good.metadata["log"]).is_file()


def test_mutants_the_hidden_tests_miss_are_discarded(scored):
    run, tmp_path = scored
    equivalent = {
        "entry_point": "clamp",
        "solution": "def clamp(x, high):\n    if x > high:\n        return high\n    return x\n",
        "tests": "assert clamp(5, 3) == 3\nassert clamp(2, 3) == 2\n",
    }
    (score,) = run([(_sample("eq", equivalent), "def test_c():\n    assert clamp(5, 3) == 3\n")])
    # the only edit (> to >=) returns the same value: the hidden tests pass, it is dropped
    assert score.value == 1.0 and score.metadata["mutants"] == 0
    assert score.metadata["mutation_score"] is None
    (stored,) = (tmp_path / "mutants").glob("*.json")
    assert '"discarded_surviving_hidden_tests": 1' in stored.read_text()


def test_a_looping_mutant_is_killed_by_the_time_limit(scored):
    run, _ = scored
    looping = {
        "entry_point": "countdown",
        "solution": "def countdown(n):\n    while n > 0:\n        n -= 1\n    return n\n",
        "tests": "assert countdown(3) == 0\n",
    }
    test = "def test_countdown():\n    assert countdown(2) == 0\n"
    (score,) = run([(_sample("loop", looping), test)])
    assert score.value == 1.0
    operators = score.metadata["operators"]
    assert "Sub->Add" in operators  # n += 1 loops forever: the alarm kills it
    killed = score.metadata["killed_by_mutant"][operators.index("Sub->Add")]
    assert killed is True


def test_an_item_whose_file_fails_the_trivial_test_is_left_unscored(scored):
    run, _ = scored
    broken = {**TARGET, "solution": SOLUTION + "raise RuntimeError('module fails')\n"}
    (score,) = run([(_sample("broken", broken), GOOD)])
    assert score.value is None and "validity check failed" in score.explanation


def test_syntax_of_the_test_file():
    scorer = TestSyntaxScorer()
    context = ScoreContext(task=None, artifacts=None)  # type: ignore[arg-type]
    assert scorer.score(_sample("a"), GOOD, context).value == 1.0
    assert scorer.score(_sample("a"), "", context).value == 0.0
    assert scorer.score(_sample("a"), "def test_x(:\n", context).value == 0.0
