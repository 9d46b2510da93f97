"""Failing closed: no bwrap, or user namespaces refused, never runs code unsandboxed."""

from __future__ import annotations

import contextlib
import os
import socket
import stat
from pathlib import Path

import pytest

from seebench.sandbox import (
    Sandbox,
    SandboxRequest,
    detect,
    find_bwrap,
    open_sandbox,
    python_tests_request,
)
from seebench.sandbox.cgroups import cgroups_writable
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


def test_unsafe_host_exec_is_really_not_isolated():
    """``mechanism: none`` is honest: the host's loopback is reachable from such a run."""
    with socket.socket() as server, open_sandbox(unsafe_host_exec=True) as box:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        code = (
            f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=2).close()\n"
        )
        result = box.run(python_tests_request(code, limits=TIGHT))
    assert result.verdict == "passed", result


def test_unsafe_host_exec_kills_a_runs_leftover_daemon(tmp_path):
    if not cgroups_writable():
        pytest.skip("cgroups are not writable here: leftovers cannot be found")
    pid_file = tmp_path / "daemon.pid"
    code = f"""
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open({str(pid_file)!r}, "w").write(str(os.getpid()))
        time.sleep(30)
    os._exit(0)
for _ in range(100):
    if os.path.exists({str(pid_file)!r}):
        break
    time.sleep(0.02)
"""
    with open_sandbox(unsafe_host_exec=True) as box:
        result = box.run(python_tests_request(code, limits=TIGHT))
        assert result.verdict == "passed", result
        daemon = int(pid_file.read_text())
        state = ""
        with contextlib.suppress(OSError):
            state = Path(f"/proc/{daemon}/stat").read_text().rsplit(")", 1)[1].split()[0]
        assert state in ("", "Z"), f"daemon {daemon} still running ({state})"


def test_root_without_writable_cgroups_prefers_a_dropped_uid(tmp_path, monkeypatch):
    if os.geteuid() != 0:
        pytest.skip("only host root is exempt from process limits")
    real = find_bwrap()
    if real is None:
        pytest.skip("no bwrap here")
    link = tmp_path / "bwrap"  # a path of its own, so that detect() probes afresh
    link.symlink_to(real)
    monkeypatch.setattr("seebench.sandbox.mechanism.cgroups_writable", lambda: False)
    mechanism = detect(str(link))
    assert mechanism.name == "bwrap-root"
    assert "pids cgroup" in mechanism.note
