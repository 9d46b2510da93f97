"""Failing closed: no bwrap, or user namespaces refused, never runs code unsandboxed."""

from __future__ import annotations

import os
import stat

import pytest

from seebench.sandbox import SandboxRequest, detect, find_bwrap, open_sandbox
from seebench.sandbox.mechanism import SandboxUnavailable
from tests.sandbox.conftest import TIGHT


def fake_bwrap(tmp_path, *refuse: str) -> str:
    """A bwrap wrapper that fails like a kernel refusing the namespace options ``refuse`` and
    otherwise runs the real bwrap."""
    real = find_bwrap()
    if real is None:
        pytest.skip("no bwrap here to wrap")
    path = tmp_path / "bwrap"
    patterns = "|".join(f'*" {option} "*' for option in refuse)
    path.write_text(
        "#!/bin/sh\n"
        f'case " $* " in {patterns}) '
        'echo "bwrap: No permissions to create a new namespace" >&2; exit 1;; esac\n'
        f'exec {real} "$@"\n'
    )
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_missing_bwrap_makes_every_run_unavailable(tmp_path):
    box = open_sandbox(bwrap=str(tmp_path / "no-such-bwrap"))
    assert not box.available
    assert "no bwrap executable found" in box.reason
    result = box.run(SandboxRequest(command=["true"]))
    assert result.verdict == "sandbox_unavailable"
    assert not result.passed
    assert result.reason == box.reason


def test_refused_user_namespaces_fall_back_to_a_dropped_uid_as_root(tmp_path):
    bwrap = fake_bwrap(tmp_path, "--unshare-user")
    if os.geteuid() != 0:
        with pytest.raises(SandboxUnavailable, match="No permissions"):
            detect(bwrap)
        return
    mechanism = detect(bwrap)
    assert mechanism.name == "bwrap-root"
    assert "user namespaces refused" in mechanism.note
    from seebench.sandbox import Sandbox, python_tests_request

    with Sandbox(mechanism) as box:
        result = box.run(
            python_tests_request(
                "import os\nassert os.getuid() == 65534 and os.geteuid() == 65534\n"
                "assert os.getgroups() in ([], [65534])\n",
                limits=TIGHT,
            )
        )
    assert result.verdict == "passed", result
    assert result.mechanism == "bwrap-root"


def test_bwrap_that_cannot_sandbox_at_all_is_refused(tmp_path):
    bwrap = fake_bwrap(tmp_path, "--unshare-user", "--unshare-pid")
    box = open_sandbox(bwrap=bwrap)
    assert not box.available
    assert box.reason.startswith("bwrap cannot create a sandbox:")
    assert "\n" not in box.reason
    assert box.run(SandboxRequest(command=["true"])).verdict == "sandbox_unavailable"


def test_unsafe_host_exec_runs_with_mechanism_none(tmp_path):
    with open_sandbox(unsafe_host_exec=True) as box:
        assert box.describe()["mechanism"] == "none"
        result = box.run(SandboxRequest(command=["sh", "-c", "echo $HOME"], limits=TIGHT))
    assert result.verdict == "passed", result
    assert result.mechanism == "none"
