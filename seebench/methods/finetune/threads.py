"""How many threads fine-tuning computes with: the CPUs this process may use, not the machine's.

PyTorch sizes its thread pool from the machine (its physical cores). In a container or a job
limited by CPU affinity or a cgroup CPU quota that is more threads than the process may run at
once: the threads of one parallel operation then wait for each other at every barrier while
the scheduler runs them in turns, and each operation takes as long as its slowest thread. So
the pool is sized to :func:`usable_cpus`: the affinity mask (``os.sched_getaffinity``), capped
by the cgroup quota (``cpu.max`` of cgroup v2, ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` of
v1). ``OMP_NUM_THREADS`` or ``-o threads=N`` set by the user win.

**No busy-waiting.** Between two parallel operations an OpenMP worker thread by default spins
for a while (GNU OpenMP: 300,000 iterations) before it sleeps. On a machine of its own that
saves a wake-up; on a shared one the spinning threads take the CPU the other threads of the
same operation (and every other process) need, and training slows several-fold. So
:func:`passive_waits` sets ``OMP_WAIT_POLICY=PASSIVE`` (threads sleep while they wait) unless
the user set a policy. OpenMP reads it once, when PyTorch loads it, so the finetune method
sets it when its modules are imported, before PyTorch is; :func:`wait_policy` says what is in
effect, and the run's info records it.
"""

from __future__ import annotations

import math
import os
import sys
from pathlib import Path
from typing import Any

#: where the cgroup file systems are mounted
CGROUP_ROOT = Path("/sys/fs/cgroup")


def usable_cpus(root: Path = CGROUP_ROOT, proc_cgroup: Path = Path("/proc/self/cgroup")) -> int:
    """The CPUs this process may keep busy at once: its affinity mask, capped by its cgroup's
    CPU quota (rounded down, at least 1)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        cpus = os.cpu_count() or 1
    quota = cgroup_cpu_quota(root, proc_cgroup)
    if quota is not None:
        cpus = min(cpus, math.floor(quota))
    return max(1, cpus)


def cgroup_cpu_quota(
    root: Path = CGROUP_ROOT, proc_cgroup: Path = Path("/proc/self/cgroup")
) -> float | None:
    """CPUs' worth of time the process's cgroup may use (``quota / period``), or None when it
    has no quota (or none can be read)."""
    for path in _cgroup_dirs(root, proc_cgroup):
        v2 = _read(path / "cpu.max")
        if v2:
            quota, _, period = v2.partition(" ")
            if quota == "max":
                return None
            return _ratio(quota, period or "100000")
        v1 = _read(path / "cpu.cfs_quota_us")
        if v1:
            if int(v1) < 0:
                return None
            return _ratio(v1, _read(path / "cpu.cfs_period_us") or "100000")
    return None


def _cgroup_dirs(root: Path, proc_cgroup: Path) -> list[Path]:
    """The process's own cgroup folders (v2 unified, v1 ``cpu`` controller), then the roots
    (what a container sees of its own group)."""
    dirs: list[Path] = []
    for line in (_read(proc_cgroup) or "").splitlines():
        _, controllers, group = (line.split(":", 2) + ["", ""])[:3]
        group = group.strip().lstrip("/")
        if controllers == "":
            dirs.append(root / group)
        elif "cpu" in controllers.split(","):
            dirs += [root / "cpu" / group, root / controllers / group]
    dirs += [root, root / "cpu"]
    return [d for d in dict.fromkeys(dirs) if d.is_dir()]


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None


def _ratio(quota: str, period: str) -> float | None:
    try:
        value = int(quota) / int(period)
    except (ValueError, ZeroDivisionError):
        return None
    return value if value > 0 else None


#: the OpenMP wait policy this module chose, and whether PyTorch was imported before it
_CHOSEN: dict[str, Any] = {}


def passive_waits() -> None:
    """Make OpenMP threads sleep, not spin, while they wait (``OMP_WAIT_POLICY=PASSIVE``),
    unless the user chose a policy; in effect only if PyTorch is not imported yet."""
    if "OMP_WAIT_POLICY" not in os.environ:
        os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
        _CHOSEN.setdefault("late", "torch" in sys.modules)


def wait_policy() -> str:
    """The OpenMP wait policy PyTorch's threads use, as far as this process can tell."""
    policy = os.environ.get("OMP_WAIT_POLICY", "").upper() or "default (spin, then sleep)"
    if _CHOSEN.get("late"):
        return "default (spin, then sleep): PyTorch was imported before PASSIVE was set"
    return policy.lower()


def configure_threads(requested: int | None = None) -> dict[str, Any]:
    """Size PyTorch's intra-op thread pool for this process (``requested`` threads, else
    ``OMP_NUM_THREADS`` when set, else :func:`usable_cpus`); returns what was chosen, for
    the run's info."""
    import torch

    if requested:
        threads, source = int(requested), "option"
    elif os.environ.get("OMP_NUM_THREADS", "").isdigit():
        threads, source = int(os.environ["OMP_NUM_THREADS"]), "OMP_NUM_THREADS"
    else:
        threads, source = usable_cpus(), "usable CPUs"
    threads = max(1, threads)
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    return {"threads": threads, "from": source, "waits": wait_policy()}


__all__ = ["cgroup_cpu_quota", "configure_threads", "passive_waits", "usable_cpus", "wait_policy"]
