"""From a worker's raw report to a verdict: a pass is never inferred from output text."""

from __future__ import annotations

import base64
import signal

from seebench.sandbox import Limits, PythonProgram, SandboxRequest
from seebench.sandbox.verdicts import classify

LIMITS = Limits(cpu_s=2, wall_s=5, memory_mb=128)
COMMAND = SandboxRequest(command=["true"], limits=LIMITS)
TESTS = SandboxRequest(program=PythonProgram("pass"), limits=LIMITS)


def raw(**changes):
    report = {
        "exit_code": 0,
        "signal": None,
        "cpu_s": 0.1,
        "wall_s": 0.2,
        "max_rss_kb": 2048,
        "wall_timeout": False,
        "stdout": base64.b64encode(b"ALL TESTS PASSED\n").decode(),
        "stderr": "",
        "stdout_truncated": False,
        "stderr_truncated": False,
        "token_ok": False,
        "oom_kills": 0,
    }
    for key, value in changes.items():
        report[key] = base64.b64encode(value).decode() if key in ("stdout", "stderr") else value
    return report


def verdict(report, request=COMMAND):
    return classify(report, request, "bwrap-userns").verdict


def test_exit_zero_passes_a_command_but_not_tests_without_the_token():
    assert verdict(raw()) == "passed"
    assert verdict(raw(), TESTS) == "failed"
    assert verdict(raw(token_ok=True), TESTS) == "passed"


def test_token_does_not_rescue_a_failing_exit():
    assert verdict(raw(exit_code=1, token_ok=True), TESTS) == "failed"


def test_timeouts():
    assert verdict(raw(wall_timeout=True, exit_code=None, signal=9)) == "timeout"
    assert verdict(raw(exit_code=None, signal=signal.SIGXCPU)) == "timeout"
    assert verdict(raw(exit_code=None, signal=signal.SIGKILL, cpu_s=2.9)) == "timeout"
    assert verdict({"worker_timeout": True}) == "timeout"


def test_memory():
    assert verdict(raw(exit_code=None, signal=signal.SIGKILL, oom_kills=1)) == "memory"
    assert verdict(raw(exit_code=1, stderr=b"Traceback\nMemoryError\n")) == "memory"
    # a program that merely prints the word and succeeds is not a memory failure
    assert verdict(raw(stderr=b"MemoryError\n")) == "passed"


def test_crashes():
    assert verdict(raw(exit_code=None, signal=signal.SIGSEGV)) == "crashed"
    assert verdict(raw(exit_code=None, signal=signal.SIGKILL, cpu_s=0.1)) == "crashed"
    result = classify(raw(exit_code=None, signal=signal.SIGXFSZ), COMMAND, "x")
    assert result.verdict == "crashed" and "file-size" in result.reason
    assert verdict({"worker_died": True}) == "crashed"


def test_worker_fault_is_not_charged_to_the_program():
    assert verdict({"worker_error": "OSError: boom"}) == "sandbox_unavailable"


def test_score_is_unset_when_no_sandbox_ran():
    assert classify(raw(), COMMAND, "x").score == 1.0
    assert classify(raw(exit_code=2), COMMAND, "x").score == 0.0
    assert classify({"worker_error": "boom"}, COMMAND, "x").score is None
