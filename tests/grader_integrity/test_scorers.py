"""Every adversarial candidate of :mod:`.cases` through the real scorers: HumanEval's
``python_tests``, Copilot generate's hidden tests and the study's Submit. None may pass; each
ends ``failed``, ``error``, ``timeout`` or ``tampered`` (the sample verdicts of
:mod:`seebench.scoring.verdicts`), and the reference answers still pass.

The candidates run in batches (one per scorer, on two workers), each case then checked on
its own, so a failure names the case.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from seebench.data.dataset import Sample
from seebench.scoring import ScoreContext
from seebench.scoring.python_tests import PythonTestsScorer
from seebench.suites.copilot.generate.scorers import GeneratedTestsScorer
from tests.grader_integrity.cases import CASES, PROBLEMS, completion_for_definition
from tests.sandbox.conftest import open_or_skip

#: Tight limits: a case must not strain the machine, and a timeout must come quickly.
LIMITS = {"cpu_s": 2, "wall_s": 5, "memory_mb": 256}
NOT_PASSED = {"failed", "error", "timeout", "tampered"}
IDS = [case.name for case in CASES]


@pytest.fixture(scope="module", autouse=True)
def sandbox_here():
    open_or_skip(workers=1).close()


def _humaneval_sample(name: str) -> Sample:
    problem = PROBLEMS[name]
    target = {"entry_point": problem.entry_point, "tests": problem.check}
    return Sample(f"gi-{name}", problem.prompt, {**target, "reference": problem.reference})


def _generate_sample(name: str) -> SimpleNamespace:
    problem = PROBLEMS[name]
    placeholder = "    # Your code here"
    target = {
        "entry_point": problem.entry_point,
        "context": f"{problem.prompt}{placeholder}\n",
        "placeholder": placeholder,
        "tests": f"{problem.check}\ncheck({problem.entry_point})\n",
        "reference": problem.reference,
    }
    return SimpleNamespace(id=f"gi-{name}", target=target, input="")


def _score_all(scorer, items, tmp_path) -> list:
    context = ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]
    try:
        return scorer.score_many(items, context)
    finally:
        scorer.close()


@pytest.fixture(scope="module")
def humaneval(tmp_path_factory):
    """(reference scores, {case: score}) through the ``python_tests`` scorer."""
    scorer = PythonTestsScorer(**LIMITS, workers=2)
    references = [(_humaneval_sample(n), p.reference) for n, p in PROBLEMS.items()]
    attacks = [(_humaneval_sample(c.problem), c.completion) for c in CASES]
    scores = _score_all(scorer, references + attacks, tmp_path_factory.mktemp("he"))
    return scores[: len(references)], dict(zip(IDS, scores[len(references) :], strict=True))


@pytest.fixture(scope="module")
def generate(tmp_path_factory):
    """(reference scores, {case: score}) through Copilot generate's hidden-tests scorer; the
    completions are placed as whole definitions (module-level code stays module-level)."""
    scorer = GeneratedTestsScorer(**LIMITS, workers=2)
    references = [(_generate_sample(n), p.reference) for n, p in PROBLEMS.items()]
    attacks = [
        (
            _generate_sample(c.problem),
            completion_for_definition(PROBLEMS[c.problem], c.completion),
        )
        for c in CASES
    ]
    scores = _score_all(scorer, references + attacks, tmp_path_factory.mktemp("gen"))
    return scores[: len(references)], dict(zip(IDS, scores[len(references) :], strict=True))


@pytest.fixture(scope="module")
def submit():
    """(reference outcomes, {case: outcome}) through the study's Submit (its real path:
    ``CodeRunner.execute(task, code, "submit")``)."""
    pytest.importorskip("seebench_study", reason="the study plugin is not installed")
    from seebench_study.definition import StudyTask
    from seebench_study.execute import CodeRunner

    def task(name):
        problem = PROBLEMS[name]
        tests = f"{problem.check}\ncheck({problem.entry_point})\n"
        return StudyTask(name, "grader integrity", f"{problem.prompt}    pass\n", tests)

    runner = CodeRunner(dict(LIMITS), workers=2)
    try:
        references = [
            runner.execute(task(n), p.prompt + p.reference, "submit") for n, p in PROBLEMS.items()
        ]
        outcomes = {
            c.name: runner.execute(
                task(c.problem), PROBLEMS[c.problem].prompt + c.completion, "submit"
            )
            for c in CASES
        }
    finally:
        runner.close()
    return references, outcomes


def test_the_suite_covers_the_audit_and_enough_attacks():
    assert len(CASES) >= 25 and len(set(IDS)) == len(IDS)
    assert {case.finding for case in CASES} >= {"1", "2", "3", "4"}


def test_reference_answers_pass_every_scorer(humaneval, generate, submit):
    for scores in (humaneval[0], generate[0]):
        assert [s.metadata["verdict"] for s in scores] == ["passed"] * len(PROBLEMS), [
            (s.explanation, s.metadata.get("stderr")) for s in scores
        ]
    assert [o.passed for o in submit[0]] == [True] * len(PROBLEMS), [o.output for o in submit[0]]


def _check(score, case) -> None:
    verdict = score.metadata.get("verdict")
    assert score.value == 0.0, (verdict, score.explanation, score.metadata.get("stderr"))
    assert verdict in NOT_PASSED and verdict in case.expect, (verdict, score.explanation)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_humaneval_scorer(humaneval, case):
    _check(humaneval[1][case.name], case)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_copilot_generate_scorer(generate, case):
    _check(generate[1][case.name], case)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_study_submit(submit, case):
    outcome = submit[1][case.name]
    assert not outcome.passed, outcome.output
    assert outcome.output != "All tests passed."


def test_original_humaneval_semantics_are_an_option_of_their_own(tmp_path):
    """``helpers: completion``: the completion's redefinition of a helper is what the tests
    call (as in the original HumanEval script); the identity says so."""
    [case] = [c for c in CASES if c.finding == "3"]
    sample = _humaneval_sample(case.problem)
    original = PythonTestsScorer(**LIMITS, workers=1, helpers="completion")
    default = PythonTestsScorer(**LIMITS, workers=1)
    assert original.identity()["helpers"] == "completion" != default.identity()["helpers"]
    [score] = _score_all(original, [(sample, case.completion)], tmp_path)
    assert score.metadata["verdict"] == "passed"  # the attack the default refuses
