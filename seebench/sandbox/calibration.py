"""Calibrated limits: run a task's reference solution a few times, derive its time limits.

A failing reference marks the task broken (the model is never charged for it). The limits are
``max(minimum, k × median)`` on CPU time first, with wall time as a looser backstop; the
provenance (host, sandbox, timings, k, limits) goes into the result.
"""

from __future__ import annotations

import os
import platform
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from seebench.sandbox.types import Limits, SandboxRequest, SandboxResult

DEFAULT_K = 5.0
DEFAULT_MINIMUM = Limits(cpu_s=1.0, wall_s=5.0)
#: Wall time allowed per second of CPU-time limit (a busy machine slows wall time only).
WALL_PER_CPU = 3.0


@dataclass(frozen=True)
class Calibration:
    """The outcome of a preflight: limits to use, or why the task is broken."""

    limits: Limits | None
    provenance: dict[str, Any] = field(default_factory=dict)
    broken_reason: str = ""

    @property
    def broken(self) -> bool:
        return self.limits is None


def host_facts() -> dict[str, Any]:
    """The facts about this machine that explain a timing (no names, no paths)."""
    model = ""
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "machine": platform.machine(),
        "kernel": platform.release(),
        "cpu": model,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }


def calibrate_limits(
    cpu_times: Sequence[float],
    wall_times: Sequence[float],
    *,
    k: float = DEFAULT_K,
    minimum: Limits = DEFAULT_MINIMUM,
    base: Limits | None = None,
    sandbox: dict[str, Any] | None = None,
) -> tuple[Limits, dict[str, Any]]:
    """Limits from reference timings, and the provenance dict to record with the results.

    ``cpu_s = max(minimum.cpu_s, k × median CPU)``; ``wall_s = max(minimum.wall_s,
    k × median wall, WALL_PER_CPU × cpu_s)``. Other limits come from ``base``.
    """
    if not cpu_times or len(cpu_times) != len(wall_times):
        raise ValueError("calibration needs the same, non-zero number of CPU and wall timings")
    if k <= 0:
        raise ValueError(f"calibration factor k must be positive, got {k}")
    cpu_median = statistics.median(cpu_times)
    wall_median = statistics.median(wall_times)
    cpu_limit = round(max(minimum.cpu_s, k * cpu_median), 3)
    wall_limit = round(max(minimum.wall_s, k * wall_median, WALL_PER_CPU * cpu_limit), 3)
    limits = (base or minimum).replace(cpu_s=cpu_limit, wall_s=wall_limit)
    provenance = {
        "host": host_facts(),
        "sandbox": dict(sandbox or {}),
        "reference_cpu_s": [round(t, 4) for t in cpu_times],
        "reference_wall_s": [round(t, 4) for t in wall_times],
        "k": k,
        "minimum": {"cpu_s": minimum.cpu_s, "wall_s": minimum.wall_s},
        "limits": limits.as_dict(),
    }
    return limits, provenance


def preflight_reference(
    sandbox: Any,
    request: SandboxRequest,
    *,
    repeats: int = 3,
    k: float = DEFAULT_K,
    minimum: Limits = DEFAULT_MINIMUM,
) -> Calibration:
    """Run a task's reference solution ``repeats`` times under ``request.limits`` (generous
    ones) and calibrate. A run that does not pass makes the task broken, with its reason."""
    results: list[SandboxResult] = []
    for _ in range(max(1, repeats)):
        result = sandbox.run(request)
        if not result.passed:
            reason = f"reference solution got {result.verdict}: {result.reason}".rstrip(": ")
            provenance = {"host": host_facts(), "sandbox": sandbox.describe()}
            return Calibration(None, provenance, broken_reason=reason)
        results.append(result)
    limits, provenance = calibrate_limits(
        [r.cpu_s for r in results],
        [r.wall_s for r in results],
        k=k,
        minimum=minimum,
        base=request.limits,
        sandbox=sandbox.describe(),
    )
    return Calibration(limits, provenance)
