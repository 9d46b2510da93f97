"""Fine-tuning's thread pool: sized to the CPUs the process may use (affinity, cgroup quota)."""

from __future__ import annotations

import os

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
        assert threads.configure_threads() == {"threads": 1, "from": "usable CPUs"}
        assert torch.get_num_threads() == 1
        monkeypatch.setenv("OMP_NUM_THREADS", "2")
        assert threads.configure_threads()["from"] == "OMP_NUM_THREADS"
        assert torch.get_num_threads() == 2
        assert threads.configure_threads(3) == {"threads": 3, "from": "option"}
    finally:
        torch.set_num_threads(before)
