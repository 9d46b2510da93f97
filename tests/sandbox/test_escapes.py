"""The escape battery: every attack a model's code could make is contained, with its verdict.

Every attack runs under low limits (tests.sandbox.conftest.TIGHT) and is bounded in time and
count, so that a failure of the sandbox cannot harm the machine running the tests.
"""

from __future__ import annotations

import os
import socket
import textwrap
import uuid

import pytest

from seebench.sandbox import Limits, SandboxRequest, python_tests_request
from tests.sandbox.conftest import TIGHT


@pytest.fixture
def sandbox(any_sandbox):
    """Every attack runs under each mechanism this machine can use."""
    return any_sandbox


def run_python(sandbox, code: str, limits: Limits = TIGHT, **kwargs):
    return sandbox.run(python_tests_request(textwrap.dedent(code), limits=limits, **kwargs))


def assert_sandbox_clean(sandbox) -> None:
    """The next run in the same worker sees no leftover process or file of the previous one."""
    result = run_python(
        sandbox,
        """
        import os, sys
        pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
        # bwrap's init, the worker, its candidate spawner (forked before any request), this run
        assert pids == [1, 2, 3, os.getpid()], pids
        # read-only host mounts (the interpreter's environment) may lie below /tmp, as in CI
        mounted = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix)}
        def leftovers(root):
            found = []
            for folder, dirs, files in os.walk(root):
                dirs[:] = [d for d in dirs if os.path.join(folder, d) not in mounted]
                found += [os.path.join(folder, f) for f in files]
            return found
        assert leftovers("/tmp") == [] and leftovers("/dev/shm") == [], "scratch left"
        assert os.listdir(".") == [], os.listdir(".")
        """,
    )
    assert result.verdict == "passed", result


def test_no_external_network(sandbox):
    result = run_python(
        sandbox,
        """
        import socket
        for address in [("1.1.1.1", 53), ("8.8.8.8", 443)]:
            try:
                socket.create_connection(address, timeout=2).close()
            except OSError:
                continue
            raise SystemExit(f"ESCAPED: reached {address}")
        """,
    )
    assert result.verdict == "passed", result


def test_no_dns(sandbox):
    result = run_python(
        sandbox,
        """
        import socket
        try:
            socket.getaddrinfo("pypi.org", 443)
        except OSError:
            pass
        else:
            raise SystemExit("ESCAPED: resolved pypi.org")
        """,
    )
    assert result.verdict == "passed", result


def test_host_loopback_listener_is_unreachable(sandbox):
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        result = run_python(
            sandbox,
            f"""
            import socket
            try:
                socket.create_connection(("127.0.0.1", {port}), timeout=2).close()
            except OSError:
                pass
            else:
                raise SystemExit("ESCAPED: reached the host's listener")
            """,
        )
    assert result.verdict == "passed", result


def test_host_abstract_unix_socket_is_unreachable(sandbox):
    name = f"\0seebench-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(name)
        server.listen(1)
        result = run_python(
            sandbox,
            f"""
            import socket
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                client.connect({name!r})
            except OSError:
                pass
            else:
                raise SystemExit("ESCAPED: reached the host's abstract socket")
            """,
        )
    assert result.verdict == "passed", result


def test_fork_bomb_is_stopped_and_cleaned_up(sandbox):
    result = run_python(
        sandbox,
        """
        import os, time
        for _ in range(2000):
            try:
                os.fork()
            except OSError:
                time.sleep(0.01)
        """,
        limits=TIGHT.replace(wall_s=3),
    )
    assert result.verdict in ("timeout", "failed", "crashed"), result
    assert_sandbox_clean(sandbox)


def test_huge_allocation_gets_memory_verdict(sandbox):
    result = run_python(sandbox, "block = bytearray(8 * 1024**3)")
    assert result.verdict == "memory", result


def test_cpu_loop_ignoring_sigxcpu_times_out(sandbox):
    result = run_python(
        sandbox,
        """
        import signal
        signal.signal(signal.SIGXCPU, signal.SIG_IGN)
        while True:
            pass
        """,
        limits=TIGHT.replace(cpu_s=1, wall_s=10),
    )
    assert result.verdict == "timeout", result
    assert "CPU" in result.reason


def test_fractional_cpu_limit_is_enforced(sandbox):
    result = run_python(sandbox, "while True:\n    pass\n", limits=TIGHT.replace(cpu_s=0.3))
    assert result.verdict == "timeout", result
    assert "CPU-time limit of 0.3 s" in result.reason


def test_sleep_ignoring_sigterm_times_out(sandbox):
    result = run_python(
        sandbox,
        """
        import signal, time
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(60)
        """,
        limits=TIGHT.replace(wall_s=1.5),
    )
    assert result.verdict == "timeout", result
    assert "wall" in result.reason


def test_writes_outside_the_work_dir_fail(sandbox, tmp_path):
    host_target = tmp_path / "written-from-sandbox"
    result = run_python(
        sandbox,
        f"""
        import os, sys
        targets = ["/usr/seebench", "/etc/seebench", "/seebench", "/opt/seebench/zygote.py",
                   os.path.join(sys.prefix, "seebench"), {str(host_target)!r}]
        for target in targets:
            try:
                with open(target, "w") as handle:
                    handle.write("x")
            except OSError:
                continue
            raise SystemExit(f"ESCAPED: wrote {{target}}")
        open("inside-is-fine.txt", "w").write("ok")
        """,
    )
    assert result.verdict == "passed", result
    assert not host_target.exists()


def test_planted_host_file_is_not_readable(sandbox, tmp_path):
    secret = tmp_path / "planted-secret.txt"
    secret.write_text("seebench-planted-secret")
    repository_file = os.path.abspath(__file__)
    result = run_python(
        sandbox,
        f"""
        for path in [{str(secret)!r}, {repository_file!r}, "/etc/shadow", "/root/.bashrc"]:
            try:
                open(path).read()
            except OSError:
                continue
            raise SystemExit(f"ESCAPED: read {{path}}")
        """,
    )
    assert result.verdict == "passed", result


def test_huge_file_is_cut_by_the_file_size_limit(sandbox):
    result = run_python(
        sandbox,
        """
        with open("big.bin", "wb") as handle:
            for _ in range(1024):  # 1 GiB in 1 MiB blocks
                handle.write(b"x" * 1024 * 1024)
        """,
    )
    assert result.verdict == "crashed", result
    assert "file-size" in result.reason
    assert_sandbox_clean(sandbox)


def test_filling_dev_shm_stops_at_its_size(sandbox):
    result = run_python(
        sandbox,
        """
        written = 0
        try:
            for index in range(200):  # at most 200 MiB, in files under the file-size limit
                with open(f"/dev/shm/fill{index}", "wb") as handle:
                    for _ in range(2):
                        handle.write(b"x" * 1024 * 1024)
                        written += 1
        except OSError:
            pass
        print(written)
        assert written <= 17, written
        """,
    )
    assert result.verdict == "passed", result
    assert_sandbox_clean(sandbox)


def test_daemon_does_not_outlive_its_run(sandbox):
    result = run_python(
        sandbox,
        """
        import os, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                time.sleep(30)
                open("/tmp/daemon-was-here", "w").write("x")
            os._exit(0)
        time.sleep(0.2)
        """,
    )
    assert result.verdict == "passed", result
    assert_sandbox_clean(sandbox)


def test_killing_the_worker_is_a_crash_and_the_sandbox_recovers(sandbox):
    result = run_python(sandbox, "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n")
    assert result.verdict == "crashed", result
    assert "worker" in result.reason
    assert_sandbox_clean(sandbox)


def test_proc_shows_only_the_sandbox(sandbox):
    result = run_python(
        sandbox,
        """
        import os
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
        assert len(pids) <= 4, pids
        for pid in pids:
            cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
            assert b"pytest" not in cmdline, cmdline
        """,
    )
    assert result.verdict == "passed", result


def test_worker_is_not_traceable(sandbox):
    result = run_python(
        sandbox,
        """
        import ctypes, os
        libc = ctypes.CDLL(None, use_errno=True)
        PTRACE_ATTACH = 16
        assert libc.ptrace(PTRACE_ATTACH, os.getppid(), 0, 0) == -1, "ESCAPED: attached"
        for name in ("mem", "environ", "fd/0"):
            try:
                open(f"/proc/{os.getppid()}/{name}", "rb").read(1)
            except OSError:
                continue
            raise SystemExit(f"ESCAPED: read the worker's {name}")
        """,
    )
    assert result.verdict == "passed", result


def test_namespaces_and_mounts_are_refused(sandbox):
    # bwrap-root is only chosen where the host refuses user namespaces, so it needs no
    # --disable-userns (which itself needs a user namespace); here the host may allow them
    new_user = sandbox.mechanism.name != "bwrap-root"
    result = run_python(
        sandbox,
        f"""
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET = 0x10000000, 0x00020000, 0x40000000
        flags_to_try = [CLONE_NEWNS, CLONE_NEWNET]
        if {new_user}:
            flags_to_try += [CLONE_NEWUSER, CLONE_NEWUSER | CLONE_NEWNS]
        for flags in flags_to_try:
            assert libc.unshare(flags) == -1, f"ESCAPED: unshare({{flags:#x}})"
        assert libc.mount(b"none", b"/sandbox", b"tmpfs", 0, None) == -1, "ESCAPED: mount"
        assert libc.setuid(0) == -1 or __import__("os").getuid() != 0, "ESCAPED: setuid(0)"
        """,
    )
    assert result.verdict == "passed", result


@pytest.mark.parametrize(
    "forgery",
    [
        'print("passed")\nprint("ALL TESTS PASSED")\nimport os\nos._exit(0)',
        "import sys\nsys.exit(0)",
        "import os\nos.write(3, b'0' * 32)\nos._exit(0)",
        "raise SystemExit",
    ],
)
def test_a_forged_completion_is_not_a_pass(sandbox, forgery):
    code = f"def solution():\n    return 1\n{forgery}\nassert solution() == 2\n"
    result = run_python(sandbox, code)
    assert result.verdict == "failed", result
    assert "completion token" in result.reason


def test_api_keys_are_never_visible(monkeypatch):
    from tests.sandbox.conftest import open_or_skip

    secret = "sk-seebench-test-" + uuid.uuid4().hex
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    monkeypatch.setenv("HF_TOKEN", secret)
    with open_or_skip(workers=1) as box:
        result = box.run(
            SandboxRequest(
                command=["sh", "-c", "env; cat /proc/*/environ /proc/*/cmdline; true"],
                limits=TIGHT,
            )
        )
    assert result.verdict == "passed", result
    assert "PATH=" in result.stdout
    assert secret not in result.stdout and secret not in result.stderr
