"""The scorer against the fake environments: real pytest runs of placed tests, real trace."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from seebench.scoring.core import ScoreContext
from seebench.suites.copilot.repo_testgen import scorer as scorer_module
from seebench.suites.copilot.repo_testgen.scorer import RepoTestScorer

from .conftest import STAGED, make_target, write_tiny_repo
from .fake_envs import FakeEnvs

GOOD = "from pkg.calc import add\n\n\ndef test_add_small():\n    assert add(2, 2) == 4\n"
NO_CALL = "from pkg.calc import other\n\n\ndef test_other_only():\n    assert other() == 1\n"
FAILING = "from pkg.calc import add\n\n\ndef test_add_wrong():\n    assert add(2, 2) == 5\n"
MODULE_CALL = "from pkg.calc import add\n\nadd(1, 1)\n\n\ndef test_nothing():\n    assert True\n"


def _runner(root, artifacts, status="ready"):
    """``go(answer) -> (Score, FakeEnvs)`` with one scorer (its validity check is cached)."""
    fake = FakeEnvs({STAGED.slug: root}, status=status)
    scorer = RepoTestScorer(timeout_s=60, backend=fake.backend())
    context = ScoreContext(task=SimpleNamespace(name="t"), artifacts=artifacts)

    def go(answer):
        fake.runs.clear()
        sample = SimpleNamespace(id="case-1", target=make_target())
        return scorer.score(sample, answer, context), fake

    return go


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    """One tiny repository and one scorer for the answers that do not change the repo."""
    base = tmp_path_factory.mktemp("repo-test")
    root = write_tiny_repo(base / "tiny")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scorer_module, "staged_repo", lambda t: (STAGED, ""))
        patch.setattr(scorer_module, "source_tree", lambda repo: root)
        yield _runner(root, base / "artifacts")


@pytest.fixture
def own(tiny_repo, tmp_path, monkeypatch):
    """A fresh repository and scorer for tests that change the repository."""
    monkeypatch.setattr(scorer_module, "staged_repo", lambda t: (STAGED, ""))
    monkeypatch.setattr(scorer_module, "source_tree", lambda repo: tiny_repo)
    return tiny_repo, lambda status="ready": _runner(tiny_repo, tmp_path / "art", status)


def test_a_passing_test_that_calls_the_focal_method_succeeds(shared):
    shared("")  # the validity check runs (once per focal file), the empty answer does not
    score, fake = shared(GOOD)
    assert score.value == 1.0, score.explanation
    assert score.metadata["passed"] and score.metadata["invokes"]
    assert [run["tests"] for run in fake.runs] == [["pkg/test_seebench_add.py"]]
    assert "_seebench_profile" in fake.runs[-1]["changes"]["pkg/conftest.py"]


def test_a_passing_test_that_never_calls_the_focal_method_fails(shared):
    score, _ = shared(NO_CALL)
    assert score.value == 0.0
    assert score.metadata["passed"] is True and score.metadata["invokes"] is False
    assert "never call" in score.explanation


def test_a_call_at_import_time_is_not_an_invocation_by_a_test(shared):
    score, _ = shared(MODULE_CALL)
    assert score.value == 0.0 and score.metadata["invokes"] is False


def test_a_failing_test_fails(shared):
    score, _ = shared(FAILING)
    assert score.value == 0.0 and score.metadata["passed"] is False
    assert score.metadata["tests_failed"] == 1


def test_the_null_answer_runs_nothing_but_the_validity_check(shared):
    score, fake = shared("")
    assert score.value == 0.0 and score.explanation == "no test code"
    assert fake.runs == []


def test_an_environment_not_ready_excludes_the_item(own):
    _, runner = own
    score, fake = runner(status="excluded")(GOOD)
    assert score.value is None and "not built" in score.metadata["excluded"]
    assert fake.runs == []


def test_an_existing_conftest_keeps_its_fixtures(own):
    root, runner = own
    (root / "pkg" / "conftest.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n", encoding="utf-8"
    )
    answer = (
        "from pkg.calc import add\n\n\ndef test_with_fixture(two):\n    assert add(two, 1) == 3\n"
    )
    score, _ = runner()(answer)
    assert score.value == 1.0, score.explanation


def test_a_failing_validity_check_leaves_the_item_unscored(own):
    root, runner = own
    (root / "pkg" / "conftest.py").write_text("raise RuntimeError('boom')\n", encoding="utf-8")
    score, fake = runner()(GOOD)
    assert score.value is None and score.metadata["valid"] is False
    assert len(fake.runs) == 1
