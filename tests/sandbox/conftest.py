"""A shared sandbox for the sandbox tests; skipped (or failed in CI) where none can start."""

from __future__ import annotations

import os

import pytest

from seebench.sandbox import Limits, Mechanism, Sandbox, find_bwrap, open_sandbox
from seebench.sandbox.mechanism import ROOT_DROPPED_UID, bwrap_version, probe
from tests.requirements import unavailable

#: CI sets this so that a missing sandbox fails the tests instead of skipping them.
REQUIRE_SANDBOX = os.environ.get("SEEBENCH_REQUIRE_SANDBOX") == "1"

#: Low limits for attacks: nothing a test runs may strain this machine.
TIGHT = Limits(cpu_s=2, wall_s=6, memory_mb=128, processes=16, file_size_mb=4, disk_mb=16)


def open_or_skip(**options):
    sandbox = open_sandbox(**options)
    if not sandbox.available:
        unavailable("sandbox", f"no sandbox here: {sandbox.reason}")
    return sandbox


@pytest.fixture(scope="module")
def sandbox():
    """One warm worker, shared by a module's tests (each run is fresh inside it)."""
    box = open_or_skip(workers=1)
    yield box
    box.close()


def _root_fallback() -> Sandbox:
    if os.geteuid() != 0:
        pytest.skip("the bwrap-root mechanism is only used as root")
    bwrap = find_bwrap()
    if bwrap is None or probe(bwrap, ROOT_DROPPED_UID) is not None:
        pytest.skip("bwrap cannot start a sandbox without user namespaces here")
    return Sandbox(Mechanism(ROOT_DROPPED_UID, bwrap, bwrap_version(bwrap)))


@pytest.fixture(scope="module", params=["best", ROOT_DROPPED_UID])
def any_sandbox(request):
    """The best mechanism here, then (as root) the fallback used without user namespaces."""
    box = open_or_skip(workers=1) if request.param == "best" else _root_fallback()
    yield box
    box.close()
