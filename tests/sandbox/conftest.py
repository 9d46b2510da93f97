"""A shared sandbox for the sandbox tests; skipped (or failed in CI) where none can start."""

from __future__ import annotations

import os

import pytest

from seebench.sandbox import Limits, open_sandbox

#: CI sets this so that a missing sandbox fails the tests instead of skipping them.
REQUIRE_SANDBOX = os.environ.get("SEEBENCH_REQUIRE_SANDBOX") == "1"

#: Low limits for attacks: nothing a test runs may strain this machine.
TIGHT = Limits(cpu_s=2, wall_s=6, memory_mb=128, processes=16, file_size_mb=4, disk_mb=16)


def open_or_skip(**options):
    sandbox = open_sandbox(**options)
    if not sandbox.available:
        if REQUIRE_SANDBOX:
            pytest.fail(f"SEEBENCH_REQUIRE_SANDBOX=1 but no sandbox: {sandbox.reason}")
        pytest.skip(f"no sandbox here: {sandbox.reason}")
    return sandbox


@pytest.fixture(scope="module")
def sandbox():
    """One warm worker, shared by a module's tests (each run is fresh inside it)."""
    box = open_or_skip(workers=1)
    yield box
    box.close()
