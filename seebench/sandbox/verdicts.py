"""Turning a worker's raw report into a verdict. A pass is never inferred from output text."""

from __future__ import annotations

import base64
import signal
from typing import Any

from seebench.sandbox.types import (
    ISOLATION_IN_PROCESS,
    ISOLATION_SPLIT,
    FunctionTest,
    Limits,
    SandboxRequest,
    SandboxResult,
    Verdict,
)

#: Out-of-memory messages of the runtimes we run (seen on stderr of a failed run).
MEMORY_MESSAGES = (
    "MemoryError",
    "java.lang.OutOfMemoryError",
    "JavaScript heap out of memory",
    "Cannot allocate memory",
    "std::bad_alloc",
)


#: How the tests' process of a function-level test says the candidate was at fault (see
#: ``funcrun.EXIT_ERROR`` and ``funcrun.EXIT_TAMPERED``; the two must agree).
SPLIT_EXITS: dict[int, tuple[Verdict, str]] = {
    3: ("error", "the candidate raised or did not answer"),
    4: ("tampered", "the candidate broke the protocol between the two processes"),
}


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _decode(encoded: str) -> str:
    return base64.b64decode(encoded).decode("utf-8", errors="replace")


def classify(raw: dict[str, Any], request: SandboxRequest, mechanism: str) -> SandboxResult:
    """The :class:`SandboxResult` of one run from the worker's report."""
    limits: Limits = request.limits
    common: dict[str, Any] = {"mechanism": mechanism, "isolation": isolation_of(request)}
    if raw.get("worker_timeout"):
        return SandboxResult(
            "timeout", wall_s=limits.wall_s, reason="the sandbox stopped answering", **common
        )
    if raw.get("worker_died"):
        return SandboxResult("crashed", reason="the program killed its sandbox worker", **common)
    if "setup_error" in raw:
        return SandboxResult("sandbox_unavailable", reason=raw["setup_error"], **common)
    if "worker_error" in raw:
        return SandboxResult(
            "sandbox_unavailable", reason=f"sandbox worker error: {raw['worker_error']}", **common
        )
    stdout, stderr = _decode(raw["stdout"]), _decode(raw["stderr"])
    result = {
        "exit_code": raw["exit_code"],
        "signal": raw["signal"],
        "stdout": stdout,
        "stderr": stderr,
        "cpu_s": round(float(raw["cpu_s"]), 4),
        "wall_s": round(float(raw["wall_s"]), 4),
        "max_rss_mb": round(raw.get("max_rss_kb", 0) / 1024, 1),
        "stdout_truncated": bool(raw["stdout_truncated"]),
        "stderr_truncated": bool(raw["stderr_truncated"]),
        **common,
    }
    verdict, reason = _verdict(raw, request, stderr)
    return SandboxResult(verdict, reason=reason, **result)


def isolation_of(request: SandboxRequest) -> str:
    """How the request's tests run (see :data:`~seebench.sandbox.types.ISOLATION_SPLIT`)."""
    if isinstance(request.program, FunctionTest):
        return ISOLATION_SPLIT
    return ISOLATION_IN_PROCESS if request.program is not None else ""


def _verdict(raw: dict[str, Any], request: SandboxRequest, stderr: str) -> tuple[Verdict, str]:
    limits = request.limits
    sig, code, cpu = raw["signal"], raw["exit_code"], float(raw["cpu_s"])
    if sig is None and code and raw.get("candidate_signal") not in (None, signal.SIGKILL):
        sig = raw["candidate_signal"]  # the tests failed because the candidate was killed
    if raw["wall_timeout"]:
        return "timeout", f"wall-time limit of {limits.wall_s:g} s reached"
    if (
        raw.get("cpu_timeout")
        or sig == signal.SIGXCPU
        or (sig == signal.SIGKILL and cpu >= limits.cpu_s - 0.05)
    ):
        return "timeout", f"CPU-time limit of {limits.cpu_s:g} s reached"
    if raw.get("oom_kills"):
        return "memory", f"memory limit of {limits.memory_mb} MiB reached (killed)"
    if (code or sig) and any(message in stderr[-4000:] for message in MEMORY_MESSAGES):
        return "memory", f"memory limit of {limits.memory_mb} MiB reached"
    if sig == signal.SIGXFSZ:
        return "crashed", f"file-size limit of {limits.file_size_mb} MiB reached"
    if sig is not None:
        return "crashed", f"killed by {_signal_name(sig)}"
    if isinstance(request.program, FunctionTest) and code in SPLIT_EXITS:
        return SPLIT_EXITS[code]
    if code != 0:
        return "failed", f"exit status {code}"
    program = request.program
    if program is not None and program.require_completion and not raw.get("token_ok"):
        return "failed", "exited with status 0 before the tests completed (no completion token)"
    return "passed", ""
