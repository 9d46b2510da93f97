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
