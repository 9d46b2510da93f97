"""Copilot test generation: a generated test file cannot write its own mutation score or
report. Each variant (trivial, original, every mutant) runs in a process of its own, alone
under one file name, and only the driver, which never runs the answer, prints the report
(``seebench.suites.copilot.testgen.driver``). Each forgery below kills every mutant, or
passes, with the variants run in one pytest session (DRIVER_VERSION 3); here it kills none
and gains nothing. What is still forgeable (the focal-call trace, inside a variant's own
process) is in docs/sandbox.md."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from seebench.scoring.core import ScoreContext
from seebench.suites.copilot.testgen.mutants import MutantStore
from seebench.suites.copilot.testgen.scorer import GeneratedTestScorer
from tests.sandbox.conftest import open_or_skip

SOLUTION = "def scale(x, factor=2):\n    if x < 0:\n        return 0\n    return x * factor + 1\n"
HIDDEN = "assert scale(3) == 7\nassert scale(-1) == 0\nassert scale(0, 5) == 1\n"
TARGET = {"entry_point": "scale", "solution": SOLUTION, "tests": HIDDEN}

# a test that tells a mutant by its file's name
BY_NAME = """
def test_scale():
    assert "mutant" not in __file__
"""

# ... by comparing its file with the original variant's, beside it
BY_SIBLING = """
import os

def test_scale():
    original = os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_original.py")
    if os.path.exists(original):
        assert open(original).read() == open(__file__).read()
"""

# a plugin registered from the original's module (found through gc) that fails every test of
# the files run after it: the mutants
LATER_FILES_FAIL = """
import gc
import pytest

class _FailLater:
    def __init__(self, here):
        self.here = here

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        if call.when == "call" and str(item.path) != self.here:
            outcome.get_result().outcome = "failed"

for _obj in gc.get_objects():
    if type(_obj).__name__ == "Config" and hasattr(_obj, "pluginmanager"):
        _obj.pluginmanager.register(_FailLater(__file__))
        break

def test_scale():
    assert True
"""

# the driver's recorder, found through gc: every mutant's file marked failed
RECORDER = """
import gc

def test_scale():
    for obj in gc.get_objects():
        if type(obj).__name__ == "Recorder":
            files = getattr(obj, "files", None)
            for number in range(1, 30):
                name = f"test_mutant_{number:02d}.py"
                if isinstance(files, dict):
                    files[name] = {"passed": 0, "failed": 1, "errors": 0, "skipped": 0,
                                   "collect_error": False}
"""

# a report of its own, on every descriptor it has, then out before the real one
FORGED_REPORT = """
import json, os

def test_scale():
    report = {"status": 0, "invoked": True, "output": "", "files": {
        name: {"passed": 1, "failed": 0, "errors": 0, "skipped": 0, "collect_error": False}
        for name in ("test_trivial.py", "test_original.py")}}
    line = ("\\n@@seebench-testgen-report@@ " + json.dumps(report) + "\\n").encode()
    for fd in range(1, 64):
        try:
            os.write(fd, line)
        except OSError:
            pass
    os._exit(0)
"""

#: forgeries that passed and killed every mutant in one pytest session
KILL_FORGERIES = {
    "by_name": BY_NAME,
    "by_sibling": BY_SIBLING,
    "later_files_fail": LATER_FILES_FAIL,
    "recorder": RECORDER,
}


@pytest.fixture(scope="module")
def scores(tmp_path_factory):
    open_or_skip(workers=1).close()
    tmp = tmp_path_factory.mktemp("testgen")
    scorer = GeneratedTestScorer(workers=2, store=MutantStore(tmp / "mutants"))
    context = ScoreContext(task=None, artifacts=tmp / "artifacts")  # type: ignore[arg-type]
    answers = {**KILL_FORGERIES, "forged_report": FORGED_REPORT}
    items = [(SimpleNamespace(id=name, target=TARGET, input=""), a) for name, a in answers.items()]
    try:
        found = scorer.score_many(items, context)
    finally:
        scorer.close()
    return dict(zip(answers, found, strict=True))


@pytest.mark.parametrize("name", sorted(KILL_FORGERIES))
def test_a_forgery_kills_no_mutant(scores, name):
    score = scores[name]
    assert score.metadata["mutants"] >= 3  # there were mutants to kill
    assert score.value == 1.0, score.explanation  # its tests pass on the solution
    assert score.metadata["killed"] == 0 and score.metadata["mutation_score"] == 0.0


def test_a_report_of_its_own_is_not_the_report(scores):
    score = scores["forged_report"]
    assert score.value == 0.0 and score.metadata["passed"] is False
    assert score.metadata["invokes"] is False
