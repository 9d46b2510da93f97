"""Run untrusted code (model-written programs and tests) in a fail-closed sandbox.

``open_sandbox()`` returns a pool of warm bubblewrap sandboxes, or an object whose every run
gets the verdict ``sandbox_unavailable`` with the one-line reason. See ``docs/sandbox.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.lazy_exports import lazy_exports

if TYPE_CHECKING:
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

#: each public name and the module that defines it, imported on first use (PEP 562): a plugin
#: module of this package, imported at start-up, does not import them all
_LAZY = {
    "Calibration": "seebench.sandbox.calibration",
    "calibrate_limits": "seebench.sandbox.calibration",
    "preflight_reference": "seebench.sandbox.calibration",
    "function_test_request": "seebench.sandbox.languages",
    "java_request": "seebench.sandbox.languages",
    "node_request": "seebench.sandbox.languages",
    "python_tests_request": "seebench.sandbox.languages",
    "Mechanism": "seebench.sandbox.mechanism",
    "SandboxUnavailable": "seebench.sandbox.mechanism",
    "detect": "seebench.sandbox.mechanism",
    "find_bwrap": "seebench.sandbox.mechanism",
    "Sandbox": "seebench.sandbox.pool",
    "UnavailableSandbox": "seebench.sandbox.pool",
    "open_sandbox": "seebench.sandbox.pool",
    "sweep_stale": "seebench.sandbox.pool",
    "ISOLATION_IN_PROCESS": "seebench.sandbox.types",
    "ISOLATION_SPLIT": "seebench.sandbox.types",
    "VERDICTS": "seebench.sandbox.types",
    "FunctionTest": "seebench.sandbox.types",
    "Limits": "seebench.sandbox.types",
    "PythonProgram": "seebench.sandbox.types",
    "SandboxRequest": "seebench.sandbox.types",
    "SandboxResult": "seebench.sandbox.types",
    "Verdict": "seebench.sandbox.types",
}

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


__getattr__ = lazy_exports(__name__, _LAZY)
