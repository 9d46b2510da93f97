"""The oracle answer from a (fake) baseline coverage map."""

from __future__ import annotations

import pytest

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
    assert "_SEEBENCH_NAME = 'test_calc'" in answer  # the module, imported where it is
    assert "_SEEBENCH_TESTS = {'test_add': None}" in answer  # only its covering test
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


def _score(answer, target, tiny_repo, staged, monkeypatch, tmp_path, fake):
    from types import SimpleNamespace

    from seebench.scoring.core import ScoreContext
    from seebench.suites.copilot.repo_testgen import scorer as scorer_module
    from seebench.suites.copilot.repo_testgen.scorer import RepoTestScorer

    monkeypatch.setattr(scorer_module, "staged_repo", lambda t: (staged, ""))
    monkeypatch.setattr(scorer_module, "source_tree", lambda repo: tiny_repo)
    scorer = RepoTestScorer(timeout_s=60, backend=fake.backend())
    context = ScoreContext(task=SimpleNamespace(name="t"), artifacts=tmp_path / "art")
    return scorer.score(SimpleNamespace(id="c", target=target), answer, context)


def test_the_oracle_runs_the_covering_tests_where_they_are(
    tiny_repo, staged, target, monkeypatch, tmp_path
):
    """Relative imports, a conftest fixture, a module fixture, a data file beside the test
    module and a bare ``import conftest`` keep working; the class's other (failing) test
    does not run; the focal method's trace sees the wrapped test."""
    tests = tiny_repo / "tests"
    (tests / "__init__.py").write_text("", encoding="utf-8")
    (tests / "helpers.py").write_text("THREE = 3\n", encoding="utf-8")
    (tests / "data.txt").write_text("3\n", encoding="utf-8")
    (tests / "conftest.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef one():\n    return 1\n", encoding="utf-8"
    )
    (tests / "test_calc.py").write_text(
        "import pathlib\n\nimport pytest\n\nfrom .helpers import THREE\nfrom pkg.calc import add\n\n"
        "DATA = pathlib.Path(__file__).with_name('data.txt')\n\n\n"
        "@pytest.fixture\ndef two(one):\n    return one + 1\n\n\n"
        "class TestCalc:\n"
        "    def test_add(self, one, two):\n"
        "        assert add(one, two) == THREE == int(DATA.read_text())\n\n"
        "    def test_broken(self):\n        assert False\n\n\n"
        "@pytest.mark.parametrize('n', [1, 2])\ndef test_add_n(n, one):\n"
        "    assert add(n, one) == n + 1\n\n\n"
        "def test_unrelated():\n    assert False\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(oracle, "staged_repo", lambda t: (staged, ""))
    monkeypatch.setattr(oracle, "source_tree", lambda repo: tiny_repo)
    fake = FakeEnvs({staged.slug: tiny_repo})
    fake.coverage = {
        "pkg/calc.py": {
            6: frozenset(
                {
                    "tests/test_calc.py::TestCalc::test_add",
                    "tests/test_calc.py::test_add_n[1]",
                    "tests/test_calc.py::test_add_n[2]",
                }
            )
        }
    }
    fake.passing = frozenset(fake.coverage["pkg/calc.py"][6])
    answer = oracle_test(target, fake.backend())
    assert "_SEEBENCH_NAME = 'tests.test_calc'" in answer
    assert "{'TestCalc': {'test_add': None}, 'test_add_n': None}" in answer
    score = _score(answer, target, tiny_repo, staged, monkeypatch, tmp_path, fake)
    assert score.value == 1.0, score.explanation
    assert score.metadata["tests_passed"] == 3 and score.metadata["tests_failed"] == 0

    # a plain tests folder (no __init__.py) whose module imports its conftest by name
    (tests / "__init__.py").unlink()
    (tests / "test_calc.py").write_text(
        "from conftest import one as ONE_FIXTURE\nfrom pkg.calc import add\n\n\n"
        "def test_add(one):\n    assert ONE_FIXTURE is not None and add(one, 2) == 3\n",
        encoding="utf-8",
    )
    fake.coverage = {"pkg/calc.py": {6: frozenset({"tests/test_calc.py::test_add"})}}
    fake.passing = frozenset(fake.coverage["pkg/calc.py"][6])
    for path in (tmp_path / "home").rglob("*.json"):
        path.unlink()  # the cached coverage map
    answer = oracle_test(target, fake.backend())
    assert "_SEEBENCH_NAME = 'test_calc'" in answer
    score = _score(answer, target, tiny_repo, staged, monkeypatch, tmp_path, fake)
    assert score.value == 1.0, score.explanation


def test_a_test_that_does_not_call_the_method_is_not_credited(
    tiny_repo, staged, target, monkeypatch, tmp_path
):
    """The wrapper does not make the trace lenient: a wrapped test that never calls the focal
    method passes but is not a success."""
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(oracle, "staged_repo", lambda t: (staged, ""))
    monkeypatch.setattr(oracle, "source_tree", lambda repo: tiny_repo)
    fake = FakeEnvs({staged.slug: tiny_repo})
    fake.coverage = {"pkg/calc.py": {6: frozenset({"tests/test_calc.py::test_other"})}}
    answer = oracle_test(target, fake.backend())
    assert "'test_other': None" in answer
    score = _score(answer, target, tiny_repo, staged, monkeypatch, tmp_path, fake)
    assert score.value == 0.0 and score.metadata["passed"] is True


def test_a_unittest_class_runs_only_its_covering_test(
    tiny_repo, staged, target, monkeypatch, tmp_path
):
    (tiny_repo / "tests" / "test_calc.py").write_text(
        "import unittest\n\nfrom pkg.calc import add\n\n\n"
        "class CalcTests(unittest.TestCase):\n"
        "    def setUp(self):\n        self.two = 2\n\n"
        "    def test_add(self):\n        self.assertEqual(add(1, self.two), 3)\n\n"
        "    def test_broken(self):\n        self.fail('not covering')\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(oracle, "staged_repo", lambda t: (staged, ""))
    monkeypatch.setattr(oracle, "source_tree", lambda repo: tiny_repo)
    fake = FakeEnvs({staged.slug: tiny_repo})
    fake.coverage = {"pkg/calc.py": {6: frozenset({"tests/test_calc.py::CalcTests::test_add"})}}
    fake.passing = frozenset(fake.coverage["pkg/calc.py"][6])
    answer = oracle_test(target, fake.backend())
    score = _score(answer, target, tiny_repo, staged, monkeypatch, tmp_path, fake)
    assert score.value == 1.0, score.explanation
    assert score.metadata["tests_passed"] == 1 and score.metadata["tests_failed"] == 0


def test_a_class_attribute_named_test_is_kept(tiny_repo, staged, target, monkeypatch, tmp_path):
    """Only test methods of a wrapped class are hidden: a class attribute whose name starts
    with ``test`` (rfc3986's ``test_class = URIReference``, read by the tests of a shared base
    class) keeps its value, so the covering test passes as it does under pytest."""
    (tiny_repo / "tests" / "test_calc.py").write_text(
        "from pkg.calc import add\n\n\nclass Adder:\n    run = staticmethod(add)\n\n\n"
        "class BaseCalc:\n    test_class = None\n\n"
        "    def test_add(self):\n        assert self.test_class.run(1, 2) == 3\n\n\n"
        "class TestCalc(BaseCalc):\n    test_class = Adder\n\n"
        "    def test_broken(self):\n        assert False\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(oracle, "staged_repo", lambda t: (staged, ""))
    monkeypatch.setattr(oracle, "source_tree", lambda repo: tiny_repo)
    fake = FakeEnvs({staged.slug: tiny_repo})
    fake.coverage = {"pkg/calc.py": {6: frozenset({"tests/test_calc.py::TestCalc::test_add"})}}
    fake.passing = frozenset(fake.coverage["pkg/calc.py"][6])
    answer = oracle_test(target, fake.backend())
    score = _score(answer, target, tiny_repo, staged, monkeypatch, tmp_path, fake)
    assert score.value == 1.0, score.explanation
    assert score.metadata["tests_passed"] == 1 and score.metadata["tests_failed"] == 0


SETUP_TESTS = {
    "unittest setUpClass": (
        "import unittest\n\nfrom pkg.calc import add\n\n\n"
        "class CalcTests(unittest.TestCase):\n"
        "    @classmethod\n    def setUpClass(cls):\n        cls.three = add(1, 2)\n\n"
        "    def test_three(self):\n        self.assertEqual(self.three, 3)\n",
        "tests/test_calc.py::CalcTests::test_three",
    ),
    "pytest setup_method with the method": (
        "from pkg.calc import add\n\n\nclass TestCalc:\n"
        "    def setup_method(self, method):\n        self.three = add(1, 2)\n\n"
        "    def test_three(self):\n        assert self.three == 3\n",
        "tests/test_calc.py::TestCalc::test_three",
    ),
    "pytest setup_class without arguments": (
        "from pkg.calc import add\n\n\nclass TestCalc:\n"
        "    @classmethod\n    def setup_class(cls):\n        cls.three = add(1, 2)\n\n"
        "    def test_three(self):\n        assert self.three == 3\n",
        "tests/test_calc.py::TestCalc::test_three",
    ),
}


@pytest.mark.parametrize("case", sorted(SETUP_TESTS))
def test_a_set_up_hook_that_calls_the_method_runs_from_the_answer(
    case, tiny_repo, staged, target, monkeypatch, tmp_path
):
    """A covering test whose class's set-up hook is what calls the focal method (faif's
    ``Proxy()`` built in ``setUpClass``) is credited: the hook runs from the oracle's file, as
    a generated test's own set-up would, with the arguments pytest gives it."""
    source, test_id = SETUP_TESTS[case]
    (tiny_repo / "tests" / "test_calc.py").write_text(source, encoding="utf-8")
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(oracle, "staged_repo", lambda t: (staged, ""))
    monkeypatch.setattr(oracle, "source_tree", lambda repo: tiny_repo)
    fake = FakeEnvs({staged.slug: tiny_repo})
    fake.coverage = {"pkg/calc.py": {6: frozenset({test_id})}}
    fake.passing = frozenset({test_id})
    answer = oracle_test(target, fake.backend())
    score = _score(answer, target, tiny_repo, staged, monkeypatch, tmp_path, fake)
    assert score.value == 1.0, score.explanation
    assert score.metadata["tests_passed"] == 1 and score.metadata["invokes"] is True


def test_a_module_global_that_raises_when_read_is_shared_not_fatal(
    tiny_repo, staged, target, monkeypatch, tmp_path
):
    """A test module holding a proxy whose attributes raise outside their context (flask's
    ``request``, werkzeug's ``LocalProxy``) still loads from the oracle's file: looking for
    fixtures among its globals does not read the proxy's attributes into an error."""
    (tiny_repo / "tests" / "test_calc.py").write_text(
        "from pkg.calc import add\n\n\nclass Proxy:\n    def __getattr__(self, name):\n"
        "        raise RuntimeError('working outside of request context')\n\n\n"
        "request = Proxy()\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(oracle, "staged_repo", lambda t: (staged, ""))
    monkeypatch.setattr(oracle, "source_tree", lambda repo: tiny_repo)
    fake = FakeEnvs({staged.slug: tiny_repo})
    fake.coverage = {"pkg/calc.py": {6: frozenset({"tests/test_calc.py::test_add"})}}
    fake.passing = frozenset(fake.coverage["pkg/calc.py"][6])
    answer = oracle_test(target, fake.backend())
    score = _score(answer, target, tiny_repo, staged, monkeypatch, tmp_path, fake)
    assert score.value == 1.0, score.explanation
    assert score.metadata["tests_passed"] == 1 and score.metadata["tests_failed"] == 0
