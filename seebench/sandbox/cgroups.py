"""A memory and pids cgroup per worker where the cgroup tree is writable (v1 or v2).

Groups are named ``seebench-sandbox/<host pid>-<worker>``, so a start-up sweep can remove the
groups of runners that died (SIGKILL leaves them behind) without touching live ones.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PARENT = "seebench-sandbox"
MIB = 1024 * 1024


def _controller_dirs(root: Path = CGROUP_ROOT) -> dict[str, Path] | None:
    """Where the memory and pids controllers live, or ``None`` when they cannot be used."""
    if (root / "cgroup.controllers").exists():  # cgroup v2, unified
        controllers = (root / "cgroup.controllers").read_text().split()
        if {"memory", "pids"} <= set(controllers):
            return {"memory": root, "pids": root}
        return None
    dirs = {name: root / name for name in ("memory", "pids")}
    if all((path / "cgroup.procs").exists() for path in dirs.values()):
        return dirs
    return None


def _is_v2(dirs: dict[str, Path]) -> bool:
    return dirs["memory"] == dirs["pids"]


class WorkerCgroup:
    """The cgroup(s) of one worker: limits, process attachment, OOM-kill counting."""

    def __init__(self, dirs: dict[str, Path], name: str) -> None:
        self.dirs = dirs
        self.paths = {key: path / PARENT / name for key, path in dirs.items()}
        self.v2 = _is_v2(dirs)
        for path in set(self.paths.values()):
            if not path.parent.exists():
                path.parent.mkdir(exist_ok=True)
                if self.v2:
                    (path.parent / "cgroup.subtree_control").write_text("+memory +pids")
            path.mkdir(exist_ok=True)

    def _write(self, controller: str, name: str, value: str) -> None:
        (self.paths[controller] / name).write_text(value)

    def set_limits(self, memory_bytes: int, pids: int) -> None:
        if self.v2:
            self._write("memory", "memory.max", str(memory_bytes))
            self._write("memory", "memory.swap.max", "0")
            self._write("pids", "pids.max", str(pids))
        else:
            self._write("memory", "memory.limit_in_bytes", str(memory_bytes))
            self._write("pids", "pids.max", str(pids))

    def attach(self, pids: list[int]) -> None:
        for pid in pids:
            for key in ("memory",) if self.v2 else ("memory", "pids"):
                self._write(key, "cgroup.procs", str(pid))

    def oom_kills(self) -> int:
        """How many processes the kernel's OOM killer has killed in this group so far."""
        name = "memory.events" if self.v2 else "memory.oom_control"
        try:
            text = (self.paths["memory"] / name).read_text()
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        if not self.v2:  # old kernels: count hits of the limit instead
            try:
                return int((self.paths["memory"] / "memory.failcnt").read_text())
            except (OSError, ValueError):
                return 0
        return 0

    def kill_all_but(self, *keep: int) -> None:
        """SIGKILL every process in the group except ``keep`` (the worker itself, and the
        process that forks candidates)."""
        for _ in range(50):  # a fork bomb may still be forking
            try:
                pids = [int(p) for p in (self.paths["pids"] / "cgroup.procs").read_text().split()]
            except OSError:
                return
            others = [pid for pid in pids if pid not in keep]
            if not others:
                return
            for pid in others:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def remove(self) -> None:
        for path in set(self.paths.values()):
            _remove_group(path)


def _remove_group(path: Path) -> None:
    """Kill what is left in a group and remove it (bounded retries)."""
    for _ in range(50):
        try:
            pids = [int(p) for p in (path / "cgroup.procs").read_text().split()]
        except FileNotFoundError:
            return
        except OSError:
            pids = []
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        try:
            path.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError:
            time.sleep(0.02)


def open_worker_cgroup(name: str, root: Path = CGROUP_ROOT) -> WorkerCgroup | None:
    """A fresh group for a worker, or ``None`` where cgroups are not writable here."""
    dirs = _controller_dirs(root)
    if dirs is None:
        return None
    try:
        return WorkerCgroup(dirs, name)
    except OSError:
        return None


def cgroups_writable() -> bool:
    """Whether a memory+pids cgroup can be created here (tried and removed at once)."""
    group = open_worker_cgroup(f"{os.getpid()}-probe")
    if group is None:
        return False
    group.remove()
    return True


def pid_alive(pid: int) -> bool:
    """Whether a process with that id exists (conservatively true when unsure)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale_cgroups(root: Path = CGROUP_ROOT) -> list[str]:
    """Remove the worker groups of runners that are no longer alive; return their paths."""
    dirs = _controller_dirs(root)
    removed: list[str] = []
    if dirs is None:
        return removed
    for base in set(dirs.values()):
        parent = base / PARENT
        if not parent.is_dir():
            continue
        for group in parent.iterdir():
            owner = group.name.split("-", 1)[0]
            if group.is_dir() and owner.isdigit() and not pid_alive(int(owner)):
                _remove_group(group)
                removed.append(str(group))
    return removed
