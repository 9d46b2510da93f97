"""The oracle answer from a (fake) baseline coverage map."""

from __future__ import annotations

from seebench.suites.copilot.repo_testgen import oracle
from seebench.suites.copilot.repo_testgen.oracle import oracle_test

from .fake_envs import FakeEnvs


def test_the_oracle_is_the_covering_test_module(tiny_repo, staged, target, monkeypatch, tmp_path):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(oracle, "staged_repo", lambda t: (staged, ""))
    monkeypatch.setattr(oracle, "source_tree", lambda repo: tiny_repo)
    fake = FakeEnvs({staged.slug: tiny_repo})
    fake.coverage = {"pkg/calc.py": {6: frozenset({"tests/test_calc.py::test_add"})}}
    answer = oracle_test(target, fake.backend())
    assert answer == (tiny_repo / "tests" / "test_calc.py").read_text(encoding="utf-8")
    assert fake.runs[0]["cov"] is True
    oracle_test(target, fake.backend())  # the map is cached: no second suite run
    assert len(fake.runs) == 1
    uncovered = {**target, "method": "other", "first_line": 10, "last_line": 11}
    assert oracle_test(uncovered, fake.backend()) is None


def test_no_oracle_run_when_the_environment_is_not_ready(staged, target, monkeypatch, tiny_repo):
    monkeypatch.setattr(oracle, "staged_repo", lambda t: (staged, ""))
    fake = FakeEnvs({staged.slug: tiny_repo}, status="failed")
    assert oracle_test(target, fake.backend()) == ""
    assert fake.runs == []


def test_a_relocated_oracle_keeps_its_relative_imports_and_fixtures(
    tiny_repo, staged, target, monkeypatch, tmp_path
):
    from types import SimpleNamespace

    from seebench.scoring.core import ScoreContext
    from seebench.suites.copilot.repo_testgen import scorer as scorer_module
    from seebench.suites.copilot.repo_testgen.scorer import RepoTestScorer

    tests = tiny_repo / "tests"
    (tests / "__init__.py").write_text("", encoding="utf-8")
    (tests / "helpers.py").write_text("THREE = 3\n", encoding="utf-8")
    (tests / "conftest.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef one():\n    return 1\n", encoding="utf-8"
    )
    (tests / "test_calc.py").write_text(
        "from .helpers import THREE\nfrom pkg.calc import add\n\n\n"
        "def test_add(one):\n    assert add(one, 2) == THREE\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    for module in (oracle, scorer_module):
        monkeypatch.setattr(module, "staged_repo", lambda t: (staged, ""))
        monkeypatch.setattr(module, "source_tree", lambda repo: tiny_repo)
    fake = FakeEnvs({staged.slug: tiny_repo})
    fake.coverage = {"pkg/calc.py": {6: frozenset({"tests/test_calc.py::test_add"})}}
    answer = oracle_test(target, fake.backend())
    assert "from tests.helpers import THREE" in answer
    assert "['../tests/conftest.py']" in answer
    scorer = RepoTestScorer(timeout_s=60, backend=fake.backend())
    context = ScoreContext(task=SimpleNamespace(name="t"), artifacts=tmp_path / "art")
    score = scorer.score(SimpleNamespace(id="c", target=target), answer, context)
    assert score.value == 1.0, score.explanation
