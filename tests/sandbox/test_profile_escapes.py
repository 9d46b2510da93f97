"""The escapes both profiles of the sandbox must contain (``seebench.sandbox.bwrap``): ``run``
(every judged program, through the worker) and ``build`` (the Copilot repository-environment
builder, network on), under each mechanism this machine can use (the best one, and as root
the ``bwrap-root`` fallback used where the host has no user namespaces).

Each probe is Python source that exits 0 when contained and says ``ESCAPED`` otherwise; the
network probes of ``test_escapes.py`` are the ``run`` profile's alone (builds download).
"""

from __future__ import annotations

import os
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from seebench.sandbox import python_tests_request
from seebench.sandbox.mechanism import ROOT_DROPPED_UID
from tests.sandbox.conftest import TIGHT, _root_fallback, open_or_skip

ROOT_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")


def _run_profile(mechanism: str):
    box = open_or_skip(workers=1) if mechanism == "best" else _root_fallback()

    def run(code: str) -> tuple[bool, str]:
        result = box.run(python_tests_request(code, limits=TIGHT))
        return result.verdict == "passed", f"{result.verdict}: {result.stdout}{result.stderr}"

    return box, run


def _build_profile(mechanism: str, work: Path, monkeypatch):
    from seebench.suites.copilot.repos import build_jail

    problem = build_jail.jail_available()
    if problem is not None:
        pytest.skip(problem)
    if mechanism != "best":
        _root_fallback().close()  # skips unless the fallback can start here
        monkeypatch.setattr(build_jail, "_mechanism", lambda: ROOT_DROPPED_UID)
    python = os.path.realpath(getattr(sys, "_base_executable", sys.executable))

    def run(code: str) -> tuple[bool, str]:
        done = build_jail.run_build(
            [python, "-c", code], workdir=work, writable=[work], timeout_s=60
        )
        return done.ok, f"exit {done.exit_code}: {done.output}"

    return None, run


@pytest.fixture(params=["run-best", f"run-{ROOT_DROPPED_UID}", "build-best",
                        f"build-{ROOT_DROPPED_UID}"])  # fmt: skip
def jail(request, tmp_path, monkeypatch):
    """(profile, mechanism, run(code) -> (contained, output))."""
    profile, mechanism = request.param.split("-", 1)
    if profile == "run":
        box, run = _run_profile(mechanism)
    else:
        work = tmp_path / "work"
        work.mkdir()
        box, run = _build_profile(mechanism, work, monkeypatch)
    yield profile, mechanism, run
    if box is not None:
        box.close()


def _contained(jail, code: str) -> None:
    contained, output = jail[2](textwrap.dedent(code))
    assert contained, output


def test_a_planted_host_file_is_not_readable(jail, tmp_path):
    secret = tmp_path / "planted" / f"secret-{uuid.uuid4().hex}"
    secret.parent.mkdir()
    secret.write_text("host secret")
    _contained(
        jail,
        f"""
        import os
        assert not os.path.exists({str(secret)!r}), "ESCAPED: the planted file is visible"
        assert not os.path.exists("/root/.ssh") or not os.listdir("/root/.ssh"), "ESCAPED: ssh"
        """,
    )


def test_writes_outside_the_allowed_folders_fail(jail):
    _contained(
        jail,
        """
        for path in ("/usr/seebench-escape", "/etc/seebench-escape", "/seebench-escape",
                     "/bin/seebench-escape"):
            try:
                open(path, "w").write("x")
            except OSError:
                continue
            raise SystemExit(f"ESCAPED: wrote {path}")
        """,
    )


def test_proc_shows_only_the_jail(jail):
    _contained(
        jail,
        """
        import os
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
        assert len(pids) <= 6, f"ESCAPED: {len(pids)} processes visible"
        for pid in pids:
            try:
                cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
            except OSError:
                continue
            # the host's test run (python -m pytest) must not be visible from inside
            assert b"pytest" not in cmdline.split(b"\\0"), f"ESCAPED: saw {cmdline[:200]!r}"
        """,
    )


def test_the_uid_is_unprivileged_without_capabilities(jail):
    _contained(
        jail,
        """
        import os
        assert os.getuid() == 65534 and os.getgid() == 65534, f"ESCAPED: uid {os.getuid()}"
        status = open("/proc/self/status").read()
        effective = [l for l in status.splitlines() if l.startswith("CapEff:")][0]
        assert int(effective.split()[1], 16) == 0, f"ESCAPED: {effective}"
        assert "NoNewPrivs:\\t1" in status or os.getuid() != 0, "ESCAPED: new privileges"
        """,
    )


def test_namespaces_and_mounts_are_refused(jail):
    new_user = jail[1] != ROOT_DROPPED_UID  # see test_escapes: bwrap-root has no userns
    _contained(
        jail,
        f"""
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x00020000, 0x40000000
        flags_to_try = [CLONE_NEWNS, CLONE_NEWNET]
        if {new_user}:
            flags_to_try += [CLONE_NEWUSER, CLONE_NEWUSER | CLONE_NEWNS]
        for flags in flags_to_try:
            assert libc.unshare(flags) == -1, f"ESCAPED: unshare({{flags:#x}})"
        assert libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == -1, "ESCAPED: mount"
        assert libc.setuid(0) == -1 or os.getuid() != 0, "ESCAPED: setuid(0)"
        """,
    )


def test_api_keys_are_never_visible(jail, monkeypatch):
    secret = "sk-seebench-test-" + uuid.uuid4().hex
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    _contained(
        jail,
        f"""
        import os
        assert {secret!r} not in repr(dict(os.environ)), "ESCAPED: key in the environment"
        for pid in [p for p in os.listdir("/proc") if p.isdigit()]:
            try:
                environ = open(f"/proc/{{pid}}/environ", "rb").read()
            except OSError:
                continue
            assert {secret!r}.encode() not in environ, f"ESCAPED: key in /proc/{{pid}}/environ"
        """,
    )


def test_the_root_links_are_those_of_the_host(jail):
    on_host = [name for name in ROOT_LINKS if os.path.exists(f"/{name}")]
    _contained(
        jail,
        f"""
        import os
        inside = [name for name in {ROOT_LINKS!r} if os.path.exists("/" + name)]
        assert inside == {on_host!r}, f"drifted: {{inside}} != {on_host!r}"
        """,
    )
