"""The worker pool: files, stdin, env, bounded output, order, start-up sweep."""

from __future__ import annotations

import os
from pathlib import Path

from seebench.sandbox import SandboxRequest, python_tests_request, sweep_stale
from seebench.sandbox.cgroups import CGROUP_ROOT, PARENT, open_worker_cgroup
from seebench.sandbox.worker import scratch_root
from tests.sandbox.conftest import TIGHT, open_or_skip


def test_files_stdin_and_env_reach_the_program(sandbox):
    request = SandboxRequest(
        files={"data/input.txt": "from a file\n", "tool.py": b"print('bytes too')\n"},
        command=["sh", "-c", 'cat data/input.txt; cat; echo "$GREETING"; python3 tool.py'],
        env={"GREETING": "hello"},
        stdin=b"from stdin\n",
        limits=TIGHT,
    )
    result = sandbox.run(request)
    assert result.verdict == "passed", result
    assert result.stdout == "from a file\nfrom stdin\nhello\nbytes too\n"


def test_python_tests_import_files_from_the_work_dir(sandbox):
    request = python_tests_request(
        "from solution import add\nassert add(2, 3) == 5\n",
        files={"solution.py": "def add(a, b):\n    return a + b\n"},
        limits=TIGHT,
    )
    assert sandbox.run(request).verdict == "passed"


def test_failing_test_fails_with_its_traceback(sandbox):
    result = sandbox.run(python_tests_request("assert 1 + 1 == 3, 'arithmetic'\n", limits=TIGHT))
    assert result.verdict == "failed"
    assert "AssertionError: arithmetic" in result.stderr
    assert result.exit_code == 1


def test_output_is_bounded(sandbox):
    limits = TIGHT.replace(output_bytes=1000)
    result = sandbox.run(
        python_tests_request("import sys\nfor _ in range(10000): print('x' * 99)\n", limits=limits)
    )
    assert result.verdict == "passed", result
    assert len(result.stdout) == 1000 and result.stdout_truncated
    assert not result.stderr_truncated


def test_missing_command_fails(sandbox):
    result = sandbox.run(SandboxRequest(command=["no-such-program-here"], limits=TIGHT))
    assert result.verdict == "failed"
    assert result.exit_code == 127


def test_run_many_keeps_order_across_workers():
    with open_or_skip(workers=2) as box:
        requests = [python_tests_request(f"print({i})\n", limits=TIGHT) for i in range(12)]
        results = box.run_many(requests)
    assert [r.stdout for r in results] == [f"{i}\n" for i in range(12)]
    assert {r.verdict for r in results} == {"passed"}


def _dead_pid() -> int:
    pid_max = int(Path("/proc/sys/kernel/pid_max").read_text())
    return pid_max + 1  # never a live process


def test_sweep_removes_what_dead_runners_left(tmp_path):
    stale_scratch = scratch_root() / f"{_dead_pid()}-0-stale"
    stale_scratch.mkdir(parents=True, exist_ok=True)
    (stale_scratch / "leftover.txt").write_text("x")
    live_scratch = scratch_root() / f"{os.getpid()}-0-live"
    live_scratch.mkdir(parents=True, exist_ok=True)
    stale_group = open_worker_cgroup(f"{_dead_pid()}-0")
    removed = sweep_stale()
    assert str(stale_scratch) in removed and not stale_scratch.exists()
    assert live_scratch.exists()
    live_scratch.rmdir()
    if stale_group is not None:
        assert not any(path.exists() for path in stale_group.paths.values())
        assert any(PARENT in entry for entry in removed)


def test_closing_removes_worker_cgroups():
    box = open_or_skip(workers=1)
    box.warm_up()
    (worker,) = list(box._idle.queue)
    groups = list((CGROUP_ROOT / "memory" / PARENT).glob(f"{worker.name}*"))
    box.close()
    assert not any(group.exists() for group in groups)


def test_two_pools_open_at_once_in_one_process_do_not_share_workers():
    """Worker names (cgroups, scratch folders) differ between pools of one process; both
    pools run programs side by side."""
    with open_or_skip(workers=1) as first, open_or_skip(workers=1) as second:
        names = {w.name for box in (first, second) for w in list(box._idle.queue)}
        assert len(names) == 2 and all(n.startswith(f"{os.getpid()}-") for n in names)
        request = SandboxRequest(command=["sh", "-c", "echo ok"], limits=TIGHT)
        assert first.run(request).verdict == "passed"
        assert second.run(request).verdict == "passed"
