"""Calibrated limits from a reference solution's timings."""

from __future__ import annotations

import pytest

from seebench.sandbox import Limits, calibrate_limits, preflight_reference, python_tests_request


def test_limits_are_k_times_the_median_with_a_floor():
    limits, provenance = calibrate_limits([0.5, 0.4, 0.6], [0.7, 0.6, 0.9], k=4)
    assert limits.cpu_s == 2.0
    assert limits.wall_s == max(5.0, 4 * 0.7, 3 * 2.0)
    assert provenance["k"] == 4
    assert provenance["reference_cpu_s"] == [0.5, 0.4, 0.6]
    assert provenance["limits"]["cpu_s"] == 2.0
    assert {"machine", "cpu", "cpus"} <= set(provenance["host"])
    fast, _ = calibrate_limits([0.01], [0.02])
    assert (fast.cpu_s, fast.wall_s) == (1.0, 5.0)


def test_bad_timings_are_refused():
    with pytest.raises(ValueError, match="same, non-zero number"):
        calibrate_limits([], [])
    with pytest.raises(ValueError, match="k must be positive"):
        calibrate_limits([1.0], [1.0], k=0)


def test_preflight_of_a_good_reference_calibrates(sandbox):
    request = python_tests_request("assert sum(range(10)) == 45\n", limits=Limits(disk_mb=16))
    calibration = preflight_reference(sandbox, request, repeats=2)
    assert not calibration.broken
    assert calibration.limits.cpu_s >= 1.0
    assert calibration.provenance["sandbox"]["bwrap_version"]
    assert len(calibration.provenance["reference_wall_s"]) == 2


def test_failing_reference_marks_the_task_broken(sandbox):
    request = python_tests_request(
        "assert False, 'reference is wrong'\n", limits=Limits(disk_mb=16)
    )
    calibration = preflight_reference(sandbox, request)
    assert calibration.broken
    assert calibration.broken_reason.startswith("reference solution got failed")
