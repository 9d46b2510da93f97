"""Run untrusted code (model-written programs and tests) in a fail-closed sandbox.

``open_sandbox()`` returns a pool of warm bubblewrap sandboxes, or an object whose every run
gets the verdict ``sandbox_unavailable`` with the one-line reason. See ``docs/sandbox.md``.
"""

from seebench.sandbox.calibration import Calibration, calibrate_limits, preflight_reference
from seebench.sandbox.languages import (
    function_test_request,
    java_request,
    node_request,
    python_tests_request,
)
from seebench.sandbox.mechanism import Mechanism, SandboxUnavailable, detect, find_bwrap
from seebench.sandbox.pool import Sandbox, UnavailableSandbox, open_sandbox, sweep_stale
from seebench.sandbox.types import (
    ISOLATION_IN_PROCESS,
    ISOLATION_SPLIT,
    VERDICTS,
    FunctionTest,
    Limits,
    PythonProgram,
    SandboxRequest,
    SandboxResult,
    Verdict,
)

__all__ = [
    "ISOLATION_IN_PROCESS",
    "ISOLATION_SPLIT",
    "VERDICTS",
    "FunctionTest",
    "Calibration",
    "Limits",
    "Mechanism",
    "PythonProgram",
    "Sandbox",
    "SandboxRequest",
    "SandboxResult",
    "SandboxUnavailable",
    "UnavailableSandbox",
    "Verdict",
    "calibrate_limits",
    "detect",
    "find_bwrap",
    "function_test_request",
    "java_request",
    "node_request",
    "open_sandbox",
    "preflight_reference",
    "python_tests_request",
    "sweep_stale",
]
