"""Forged test passes (class 10): model-written code that tries to get ``passed`` without being
right, through the sandbox API, the HumanEval scoring path and the study's Submit.

Function-level tests run the candidate in a process apart from the assertions, with plain data
between them: neither the completion token nor the comparison is reachable from model code.
"""

from __future__ import annotations

import pytest

from seebench.data.dataset import Sample
from seebench.plugin_manager import get_task_index
from seebench.sandbox import (
    ISOLATION_IN_PROCESS,
    ISOLATION_SPLIT,
    Limits,
    function_test_request,
    python_tests_request,
)
from seebench.scoring import ScoreContext
from seebench.scoring.python_tests import PythonTestsScorer
from tests.sandbox.conftest import open_or_skip

LIMITS = Limits(cpu_s=2, wall_s=8, memory_mb=256, processes=16, file_size_mb=4, disk_mb=16)
PROMPT = 'def add(a, b):\n    """Return a + b."""\n'
CHECK = "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(2, 2) == 4\n"
RIGHT = "    return a + b\n"

# the helper a forger would write: find every 32-hex-digit string (the per-run token) in the
# interpreter's frames and heap, write it to every descriptor, and leave with status 0
_STEAL = """
import gc as _gc, os as _os, sys as _sys

def _steal():
    found = set()
    frame = _sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
            if isinstance(value, str) and len(value) == 32:
                found.add(value)
            if isinstance(value, dict):
                found.update(v for v in value.values() if isinstance(v, str) and len(v) == 32)
        frame = frame.f_back
    for obj in _gc.get_objects():
        if isinstance(obj, dict):
            found.update(v for v in obj.values() if isinstance(v, str) and len(v) == 32)
    for fd in range(3, 64):
        for token in found:
            try:
                _os.write(fd, token.encode())
            except OSError:
                pass
    _os._exit(0)
"""

#: completions (HumanEval style: a body for ``add``, possibly followed by module-level code)
FORGERIES = {
    "frame walk to the token": "    _steal()\n" + _STEAL,
    "os._exit(0) after writing it": (
        "    import os\n    for fd in range(3, 64):\n"
        "        try:\n            os.write(fd, b'0' * 32)\n        except OSError:\n"
        "            pass\n    os._exit(0)\n"
    ),
    "module-level code in a completion": "    return 0\n" + _STEAL + "\n_steal()\n",
    "always-equal return value": (
        "    return _Equal()\n\nclass _Equal:\n    def __eq__(self, other):\n        return True\n"
        "    def __ne__(self, other):\n        return False\n    __hash__ = object.__hash__\n"
    ),
    "always-equal int subclass": (
        "    return _Int(0)\n\nclass _Int(int):\n    def __eq__(self, other):\n        return True\n"
        "    __hash__ = int.__hash__\n"
    ),
    "always-equal object inside a tuple": (
        "    return (_E(),)[0]\n\nclass _E(str):\n    def __eq__(self, other):\n        return True\n"
        "    __hash__ = str.__hash__\n"
    ),
    "sys.exit(0) at import": "    return 0\nimport sys\nsys.exit(0)\n",
    "patched assertion builtins": (
        "    return 0\nimport builtins\nbuiltins.AssertionError = type('X', (Exception,), {})\n"
    ),
    "kill the tests' process": (
        "    import os, signal\n    os.kill(os.getppid(), signal.SIGKILL)\n    return 3\n"
    ),
}


@pytest.fixture(scope="module")
def box():
    sandbox = open_or_skip(workers=1)
    yield sandbox
    sandbox.close()


def test_a_right_answer_passes_in_a_separate_process(box):
    result = box.run(function_test_request(PROMPT + RIGHT, CHECK + "check(add)\n", limits=LIMITS))
    assert result.verdict == "passed", result.stderr
    assert result.isolation == ISOLATION_SPLIT


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forgeries_fail_through_the_sandbox_api(box, name):
    request = function_test_request(PROMPT + FORGERIES[name], CHECK + "check(add)\n", limits=LIMITS)
    result = box.run(request)
    assert result.verdict != "passed" and result.score == 0.0, (name, result)


def test_plain_values_cross_exactly(box):
    candidate = (
        "def f(x):\n    return (x, [1, 2.5], {'k': {1, 2}}, frozenset([3]), b'z', 1j, None, True)\n"
    )
    tests = (
        "v = f('s')\nassert v == ('s', [1, 2.5], {'k': {1, 2}}, frozenset([3]), b'z', 1j, None, True)\n"
        "assert type(v) is tuple and type(v[1]) is list and type(v[7]) is bool\n"
    )
    assert box.run(function_test_request(candidate, tests, limits=LIMITS)).passed


def test_candidate_exceptions_reach_the_tests_as_builtin_types(box):
    candidate = "def f(x):\n    raise ValueError('bad ' + x)\n"
    tests = "try:\n    f('x')\nexcept ValueError as e:\n    assert str(e) == 'bad x'\nelse:\n    raise SystemExit(1)\n"
    assert box.run(function_test_request(candidate, tests, limits=LIMITS)).passed


def test_objects_stay_handles_with_identity_equality(box):
    candidate = (
        "class Box:\n    def __init__(self, v):\n        self.v = v\n"
        "    def get(self):\n        return self.v\n    def __eq__(self, o):\n        return True\n"
        "def make(v):\n    return Box(v)\n"
    )
    tests = (
        "b = make(5)\nassert b.get() == 5 and b.v == 5\nassert not (b == 5) and b != make(5)\n"
        "assert b == b\nassert list(iter(make([1, 2]).get())) == [1, 2]\n"
    )
    assert box.run(function_test_request(candidate, tests, limits=LIMITS)).passed


def test_a_test_cannot_pass_a_function_to_the_candidate(box):
    candidate = "def apply(fn, x):\n    return fn(x)\n"
    tests = "assert apply(lambda v: v + 1, 1) == 2\n"
    result = box.run(function_test_request(candidate, tests, limits=LIMITS))
    assert result.verdict == "failed" and "plain data only" in result.stderr


def test_a_candidate_that_loops_is_a_timeout(box):
    candidate = "def add(a, b):\n    while True:\n        pass\n"
    result = box.run(function_test_request(candidate, "add(1, 2)\n", limits=LIMITS))
    assert result.verdict == "timeout"


def test_in_process_runs_are_marked_as_such(box):
    result = box.run(python_tests_request("assert 1 + 1 == 2\n", limits=LIMITS))
    assert result.passed and result.isolation == ISOLATION_IN_PROCESS


# -- the HumanEval scoring path ----------------------------------------------------------------


def test_forgeries_fail_through_humaneval_scoring(tmp_path, box):
    sample = Sample("s1", PROMPT, {"entry_point": "add", "tests": CHECK, "reference": RIGHT})
    scorer = PythonTestsScorer(cpu_s=2, wall_s=8, workers=1)
    context = ScoreContext(task=get_task_index().get("humaneval"), artifacts=tmp_path / "a")
    answers = [RIGHT, *FORGERIES.values()]
    try:
        scores = scorer.score_many([(sample, a) for a in answers], context)
    finally:
        scorer.close()
    assert scores[0].value == 1.0, scores[0]
    for name, score in zip(FORGERIES, scores[1:], strict=True):
        assert score.value == 0.0, (name, score.metadata)
        assert score.metadata["isolation"] == ISOLATION_SPLIT


# -- the study's Submit ------------------------------------------------------------------------


def test_forgeries_fail_through_the_study_submit(box):
    from seebench_study.definition import StudyTask
    from seebench_study.execute import CodeRunner

    task = StudyTask(
        "add", "Add two numbers.", PROMPT, "assert add(1, 2) == 3\nassert add(2, 2) == 4\n"
    )
    runner = CodeRunner({"cpu_s": 2, "wall_s": 8, "memory_mb": 256}, workers=1)
    try:
        assert runner.execute(task, PROMPT + RIGHT, "submit").passed
        for name, completion in FORGERIES.items():
            outcome = runner.execute(task, PROMPT + completion, "submit")
            assert not outcome.passed, (name, outcome.output)
    finally:
        runner.close()
