"""Function-level tests in two processes (``funcrun``): the candidate's fresh interpreter holds
nothing of the request, the tests bind only names they asked for, the prompt's helpers are the
prompt's, and the candidate's control flow never reaches the tests as itself."""

from __future__ import annotations

import pytest

from seebench.sandbox import FunctionTest, SandboxRequest, funcrun, function_test_request
from seebench.sandbox.verdicts import SPLIT_EXITS
from tests.sandbox.conftest import TIGHT

# the marker is searched for in two halves never joined in the candidate's memory (a joined
# search pattern, or a constant folded by the compiler, would be found in every process)
SEARCH = """
def holds_marker():
    head, tail = b"MARKER-9d", b"41c7"
    with open("/proc/self/maps") as maps:
        regions = [line.split() for line in maps]
    with open("/proc/self/mem", "rb", buffering=0) as mem:
        for region in regions:
            if "r" not in region[1] or (len(region) > 5 and region[5].startswith("[v")):
                continue
            start, end = (int(x, 16) for x in region[0].split("-"))
            try:
                mem.seek(start)
                data = mem.read(end - start)
            except (OSError, OverflowError, ValueError):
                continue
            at = data.find(head)
            while at >= 0:
                if data[at + len(head) : at + len(head) + len(tail)] == tail:
                    return True
                at = data.find(head, at + 1)
    return False
"""


def run(sandbox, candidate: str, tests: str, **program) -> object:
    test = FunctionTest(candidate, tests, **program)
    return sandbox.run(SandboxRequest(program=test, limits=TIGHT.replace(memory_mb=256)))


def test_the_candidate_process_never_held_the_tests(sandbox):
    tests = "# MARKER-9d41c7: the tests' own text\nassert holds_marker() is False\n"
    result = run(sandbox, SEARCH, tests)
    assert result.verdict == "passed", result.stderr


def test_the_search_would_find_the_marker_where_it_is(sandbox):
    # the same search finds the marker in a process that does hold it (the check can fail)
    candidate = SEARCH + "KEPT = '-'.join(['MARKER', '9d41c7'])\n"
    result = run(sandbox, candidate, "assert holds_marker() is True\n")
    assert result.verdict == "passed", result.stderr


def test_a_prompt_helper_is_the_prompts_own_for_the_tests(sandbox):
    prompt = "def helper(x):\n    return x * 2\n\ndef f(x):\n    pass\n"
    candidate = prompt + "def f(x):\n    return x\n\ndef helper(x):\n    return x\n"
    tests = "assert f(helper(3)) == 6\n"
    assert run(sandbox, candidate, tests, prompt=prompt, from_candidate=("f",)).passed
    wrong = run(
        sandbox, candidate, "assert f(3) == helper(3)\n", prompt=prompt, from_candidate=("f",)
    )
    assert wrong.verdict == "failed"  # 3 (the candidate's f) against 6 (the prompt's helper)


def test_without_a_prompt_names_come_from_the_candidate(sandbox):
    candidate = "def helper(x):\n    return x + 1\n\ndef f(x):\n    return helper(x)\n"
    assert run(sandbox, candidate, "assert f(1) == helper(1) == 2\n").passed


def test_names_not_asked_for_are_tampering(sandbox):
    candidate = (
        "import sys\n"
        "def f():\n    return 1\n"
        "frame = sys._getframe()\n"
        "while 'ServerClass' not in globals() and frame is not None:\n"
        "    server = frame.f_globals.get('_Server')\n"
        "    if server is not None:\n"
        "        ServerClass = server\n"
        "    frame = frame.f_back\n"
        "original = ServerClass.answer\n"
        "ServerClass.answer = lambda self, r: {**original(self, r), 'len': 0} "
        "if r[0] == 'globals' else original(self, r)\n"
    )
    result = run(sandbox, candidate, "assert f() == 1\n")
    assert result.verdict == "tampered" and "not asked for" in result.stderr


@pytest.mark.parametrize("name", sorted(funcrun.CONTROL_FLOW))
def test_control_flow_never_crosses_as_itself(sandbox, name):
    candidate = f"def f(x):\n    raise {name}\n"
    tests = "assert all(map(lambda x: f(x) == 1, [1, 2]))\n"
    result = run(sandbox, candidate, tests)
    assert result.verdict == "error" and f"CandidateError: {name}" in result.stderr


def test_an_exhausted_iterator_of_the_candidate_ends_the_loop(sandbox):
    candidate = "def gen(n):\n    yield from range(n)\n"
    assert run(
        sandbox, candidate, "assert list(gen(3)) == [0, 1, 2] and list(gen(0)) == []\n"
    ).passed


def test_a_candidate_error_is_error_and_a_wrong_answer_failed(sandbox):
    candidate = "def f(x):\n    if x:\n        raise ValueError(x)\n    return 5\n"
    assert run(sandbox, candidate, "f(1)\n").verdict == "error"
    assert run(sandbox, candidate, "assert f(0) == 4\n").verdict == "failed"
    # an exception the tests expect is theirs to catch
    assert run(sandbox, candidate, "try:\n    f(1)\nexcept ValueError:\n    pass\n").passed
    loads_badly = run(sandbox, "raise RuntimeError('at import')\n", "pass\n")
    assert loads_badly.verdict == "error"


def test_the_request_helper_still_builds_a_function_test():
    request = function_test_request("def f():\n    return 1\n", "assert f() == 1\n")
    assert isinstance(request.program, FunctionTest) and request.program.prompt == ""


def test_exit_statuses_agree_between_the_tests_process_and_the_verdicts():
    assert SPLIT_EXITS[funcrun.EXIT_ERROR][0] == "error"
    assert SPLIT_EXITS[funcrun.EXIT_TAMPERED][0] == "tampered"
    assert set(SPLIT_EXITS) == {funcrun.EXIT_ERROR, funcrun.EXIT_TAMPERED}


@pytest.mark.parametrize("sig", ["SIGKILL", "SIGSTOP"])
def test_a_run_that_kills_the_spawner_gets_the_next_run_a_fresh_worker(sandbox, sig):
    killer = f"import os, signal\nos.kill(3, signal.{sig})\ndef f():\n    return 1\n"
    first = run(sandbox, killer, "assert f() == 1\n")
    assert first.verdict in ("passed", "error")  # its own answer still counts, or it broke
    again = run(sandbox, "def f():\n    return 2\n", "assert f() == 2\n")
    assert again.verdict == "passed", again
