"""The scorer against a fake of repo-envs that really runs the tiny repository's tests."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

import pytest

from seebench.data.dataset import Sample
from seebench.scoring.core import ScoreContext
from seebench.suites.copilot.repo_generate import scorer as scorer_module
from seebench.suites.copilot.repo_generate.items import item_row
from seebench.suites.copilot.repo_generate.metrics import (
    repo_generate_excluded_rate,
    repo_generate_pass_rate,
    repo_generate_syntax_rate,
)
from seebench.suites.copilot.repo_generate.scorer import RepoGenerateScorer
from seebench.suites.copilot.repo_generate.types import RepoGenerateType
from tests.suites.copilot.repo_generate.support import MODULE, FakeRepoEnvs, write_repo
from tests.suites.copilot.repo_generate.test_items import item


@pytest.fixture
def fake(tmp_path, monkeypatch) -> FakeRepoEnvs:
    envs = FakeRepoEnvs(write_repo(tmp_path / "repo"), tmp_path)
    monkeypatch.setattr(scorer_module, "staged_repo", lambda slug: object())
    monkeypatch.setattr(scorer_module, "_ensure_env", envs.ensure_env)
    monkeypatch.setattr(scorer_module, "_run_tests", envs.run_tests)
    monkeypatch.setattr(scorer_module, "_open_sandbox", lambda env: nullcontext("box"))
    return envs


def sample(**changes) -> Sample:
    row = item_row(item(**changes), MODULE, "tiny/toolkit", 12000)
    return Sample(row["id"], row["input"], row["target"])


def score(answers, fake, tmp_path: Path):
    context = ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]
    items = [(sample(), answer) for answer in answers]
    return RepoGenerateScorer(timeout_s=60).score_many(items, context)


def test_the_original_body_passes_and_the_placeholder_fails(fake, tmp_path):
    kind = RepoGenerateType()
    oracle = kind.oracle_answer(None, sample())  # type: ignore[arg-type]
    null = kind.null_answer(None, sample())  # type: ignore[arg-type]
    wrong = "return len(self.text)"
    broken = "return len(self.text.split()"
    scores = score([oracle, null, wrong, broken], fake, tmp_path)
    assert [s.value for s in scores] == [1.0, 0.0, 0.0, 0.0]
    assert scores[0].metadata["tests_passed"] and scores[0].metadata["syntax_ok"]
    assert "1/1 covering tests fail" in scores[1].explanation
    assert scores[3].explanation.startswith("syntax error") and not scores[3].metadata["syntax_ok"]
    assert len(fake.calls) == 3  # the syntax error ran no test
    assert fake.calls[0]["tests"] == ["tests/test_toolkit.py::test_count"]
    assert "return len(self.text.split())" in fake.calls[0]["changes"]["toolkit.py"]
    assert repo_generate_pass_rate(scores) == 0.25
    assert repo_generate_syntax_rate(scores) == 0.75


def test_items_that_cannot_be_judged_here_are_excluded_not_failed(fake, tmp_path, monkeypatch):
    context = ScoreContext(task=None, artifacts=tmp_path)  # type: ignore[arg-type]
    scorer = RepoGenerateScorer()
    failing_at_baseline = sample(tests=["tests/test_toolkit.py::test_broken"])
    mismatched = Sample("m", "", item_row(item(file_sha256="0" * 64), MODULE, "r", 100)["target"])
    scores = scorer.score_many(
        [(failing_at_baseline, "return 1"), (mismatched, "return 1")], context
    )
    assert [s.value for s in scores] == [None, None]
    assert (
        "did not pass at baseline here: tests/test_toolkit.py::test_broken"
        in scores[0].metadata["excluded"]
    )
    assert "differs from the listed file" in scores[1].metadata["excluded"]
    assert repo_generate_excluded_rate(scores) == 1.0
    fake.status = "failed"
    failed_env = scorer.score_many([(sample(), "return 1")], context)[0]
    assert (
        failed_env.value is None and failed_env.metadata["excluded"] == "environment failed: broken"
    )
    assert fake.calls == []
