"""Fine-tuning's thread pool: sized to the CPUs the process may use (affinity, cgroup quota)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from seebench.methods.finetune import threads


def _cgroup(tmp_path, proc_line: str, files: dict[str, str]):
    root = tmp_path / "cgroup"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    root.mkdir(exist_ok=True)
    proc = tmp_path / "proc_cgroup"
    proc.write_text(proc_line)
    return root, proc


def test_cgroup_v2_quota_of_the_process_group(tmp_path):
    root, proc = _cgroup(tmp_path, "0::/jobs/a\n", {"jobs/a/cpu.max": "150000 100000\n"})
    assert threads.cgroup_cpu_quota(root, proc) == 1.5


def test_cgroup_v2_without_quota(tmp_path):
    root, proc = _cgroup(tmp_path, "0::/\n", {"cpu.max": "max 100000\n"})
    assert threads.cgroup_cpu_quota(root, proc) is None


def test_cgroup_v1_quota_and_period(tmp_path):
    files = {"cpu/job/cpu.cfs_quota_us": "300000", "cpu/job/cpu.cfs_period_us": "100000"}
    root, proc = _cgroup(tmp_path, "4:memory:/x\n1:cpu,cpuacct:/job\n", files)
    assert threads.cgroup_cpu_quota(root, proc) == 3.0


def test_cgroup_v1_unlimited(tmp_path):
    root, proc = _cgroup(tmp_path, "1:cpu:/\n", {"cpu/cpu.cfs_quota_us": "-1"})
    assert threads.cgroup_cpu_quota(root, proc) is None


def test_usable_cpus_is_the_affinity_capped_by_the_quota(tmp_path):
    affinity = len(os.sched_getaffinity(0))
    root, proc = _cgroup(tmp_path, "0::/\n", {"cpu.max": "max 100000"})
    assert threads.usable_cpus(root, proc) == affinity
    root, proc = _cgroup(tmp_path, "0::/\n", {"cpu.max": "50000 100000"})  # half a CPU
    assert threads.usable_cpus(root, proc) == 1
    root, proc = _cgroup(tmp_path, "0::/\n", {"cpu.max": f"{100000 * (affinity + 8)} 100000"})
    assert threads.usable_cpus(root, proc) == affinity


def test_configure_threads_sets_torch_and_says_why(monkeypatch):
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    try:
        monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
        monkeypatch.setattr(threads, "usable_cpus", lambda: 1)
        chosen = threads.configure_threads()
        assert (chosen["threads"], chosen["from"]) == (1, "usable CPUs")
        assert torch.get_num_threads() == 1
        monkeypatch.setenv("OMP_NUM_THREADS", "2")
        assert threads.configure_threads()["from"] == "OMP_NUM_THREADS"
        assert torch.get_num_threads() == 2
        assert threads.configure_threads(3)["from"] == "option"
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(before)


PROBE = (
    "import os, sys; import seebench.methods.finetune.method; "
    "from seebench.methods.finetune.threads import wait_policy; "
    "print(os.environ.get('OMP_WAIT_POLICY'), 'torch' in sys.modules, wait_policy())"
)


@pytest.mark.parametrize(
    ("given", "expected"), [(None, "PASSIVE False passive"), ("ACTIVE", "ACTIVE False active")]
)
def test_the_finetune_method_asks_for_passive_waits_before_torch_loads(given, expected):
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given:
        env["OMP_WAIT_POLICY"] = given  # the user's choice wins
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == expected.split()
