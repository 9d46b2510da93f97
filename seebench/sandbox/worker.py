"""One warm sandbox on the host side: a bwrap process running the worker script (``zygote``).

Start-up (bwrap, namespaces, the interpreter) is paid once per worker; each run is then a
fork inside the sandbox. A worker that dies, hangs or is killed is replaced before its next run.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import seebench.sandbox.zygote as zygote
from seebench.sandbox.bwrap import (
    BASE_ENV,
    FUNCRUN_PATH,
    SANDBOX_UID,
    SCRATCH_DIRS,
    WORK_ROOT,
    ZYGOTE_PATH,
    bwrap_argv,
    minimal_bwrap_env,
)
from seebench.sandbox.cgroups import WorkerCgroup, open_worker_cgroup
from seebench.sandbox.mechanism import NONE, ROOT_DROPPED_UID, Mechanism
from seebench.sandbox.types import MIB, SandboxRequest

START_TIMEOUT_S = 30.0
#: Extra wall time the host allows a run (file copying, clean-up) before it kills the worker.
HOST_GRACE_S = 10.0
#: Memory the worker interpreter itself needs inside the group, on top of the run's limit.
WORKER_OVERHEAD_MB = 96


class WorkerStartError(RuntimeError):
    """The sandbox process did not start; the message says why in one line."""


def scratch_root() -> Path:
    """Where ``--unsafe-host-exec`` workers keep their work dirs (one per worker)."""
    return Path(tempfile.gettempdir()) / f"seebench-sandbox-{os.getuid()}"


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (read from ``/proc``)."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(b")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(name))
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        queue.extend(children.get(current, []))
    return found


class Worker:
    """A warm sandbox that runs one request at a time.

    ``starter`` runs the start-up in one long-lived thread: bwrap's ``--die-with-parent``
    fires when the *thread* that started it ends, so a worker started from a short-lived
    thread (an executor's) would be killed with that thread.
    """

    def __init__(
        self,
        mechanism: Mechanism,
        name: str,
        mounts: list[str],
        disk_mb: int,
        starter: ThreadPoolExecutor,
    ) -> None:
        self.starter = starter
        self.mechanism = mechanism
        self.name = name
        self.mounts = mounts
        self.disk_mb = disk_mb
        self.process: subprocess.Popen[bytes] | None = None
        self.cgroup: WorkerCgroup | None = None
        self.scratch: Path | None = None
        self.spawner_pid: int | None = None  # the worker's candidate spawner (host pid: NONE)

    # -- life cycle ---------------------------------------------------------------------------

    def start(self) -> None:
        script = str(Path(zygote.__file__).resolve())
        if self.mechanism.name == NONE:
            scratch_root().mkdir(mode=0o700, exist_ok=True)
            self.scratch = Path(tempfile.mkdtemp(prefix=f"{self.name}-", dir=scratch_root()))
            config: dict[str, Any] = {
                "work_root": str(self.scratch),
                "base_env": {**BASE_ENV, "TMPDIR": str(self.scratch)},
                "funcrun": str(Path(script).with_name("funcrun.py")),
            }
            argv = [sys.executable, "-I", script, json.dumps(config)]
        else:
            config = {
                "work_root": WORK_ROOT,
                "scratch_dirs": list(SCRATCH_DIRS),
                "own_pid_namespace": True,
                "drop_uid": SANDBOX_UID if self.mechanism.name == ROOT_DROPPED_UID else None,
                "base_env": BASE_ENV,
                "funcrun": FUNCRUN_PATH,
                # host paths bound read-only: the clean-up of the scratch dirs never walks them
                "mounts": list(self.mounts),
            }
            argv = bwrap_argv(
                self.mechanism.bwrap or "bwrap",
                self.mechanism.name,
                self.mounts,
                disk_mb=self.disk_mb,
                zygote=script,
            )
            argv += [sys.executable, "-I", ZYGOTE_PATH, json.dumps(config)]
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=minimal_bwrap_env(),
                cwd=self.scratch or "/",
                start_new_session=True,
            )
        except OSError as error:
            self.stop()
            raise WorkerStartError(f"sandbox worker did not start: {error}") from None
        assert self.process.stdout is not None  # stdout=PIPE
        try:
            ready = zygote.read_message(
                self.process.stdout.fileno(), time.monotonic() + START_TIMEOUT_S
            )
        except (TimeoutError, ValueError):
            ready = None
        if not ready or not ready.get("ready"):
            detail = self._stderr_line()
            self.stop()
            raise WorkerStartError(f"sandbox worker did not start: {detail}")
        spawner = ready.get("spawner")
        self.spawner_pid = spawner if isinstance(spawner, int) else None
        # Under --unsafe-host-exec too: the pids limit is what stops a fork bomb of host root
        # (RLIMIT_NPROC does not apply to root), and the group finds a run's leftovers.
        self.cgroup = open_worker_cgroup(self.name)
        if self.cgroup is not None:
            try:
                self.cgroup.attach(_descendants(self.process.pid))
            except OSError:  # e.g. a cgroup tree that allows mkdir but not moving processes
                self.cgroup.remove()
                self.cgroup = None

    def _stderr_line(self) -> str:
        if self.process is None or self.process.stderr is None:
            return "no process"
        self.process.kill()
        text = self.process.stderr.read().decode(errors="replace")
        lines = [line for line in text.splitlines() if line.strip()]
        return lines[-1] if lines else f"exit status {self.process.wait()}"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        """Kill the worker and everything in it; remove its cgroup and scratch dir."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
            self.process = None
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)
            self.scratch = None

    # -- one run ------------------------------------------------------------------------------

    def run(self, request: SandboxRequest) -> dict[str, Any]:
        """Run ``request``; return the worker's raw report plus ``oom_kills`` and ``nonce``."""
        if not self.alive or request.limits.disk_mb != self.disk_mb:
            self.stop()
            self.disk_mb = request.limits.disk_mb
            self.starter.submit(self.start).result()
        assert self.process is not None and self.process.stdin and self.process.stdout
        limits = request.limits
        nonce = secrets.token_hex(16) if request.program is not None else ""
        payload = {
            "files": {
                name: base64.b64encode(data.encode() if isinstance(data, str) else data).decode()
                for name, data in request.files.items()
            },
            "command": list(request.command) if request.command is not None else None,
            "program": vars(request.program) if request.program is not None else None,
            "limits": limits.as_dict(),
            "env": dict(request.env),
            "stdin": base64.b64encode(request.stdin).decode(),
            "nonce": nonce,
        }
        oom_before = 0
        if self.cgroup is not None:
            memory = (limits.memory_mb + limits.disk_mb + WORKER_OVERHEAD_MB) * MIB
            self.cgroup.set_limits(memory, limits.processes + 4)
            oom_before = self.cgroup.oom_kills()
        deadline = time.monotonic() + limits.wall_s + HOST_GRACE_S
        try:
            zygote.write_message(self.process.stdin.fileno(), payload)
            report = zygote.read_message(self.process.stdout.fileno(), deadline)
        except TimeoutError:
            self.stop()
            return {"worker_timeout": True}
        except (OSError, ValueError):
            report = None
        if report is None:
            self.stop()
            return {"worker_died": True}
        if self.cgroup is not None:
            report["oom_kills"] = self.cgroup.oom_kills() - oom_before
            if self.mechanism.name == NONE:  # no PID namespace: kill what the run left behind
                spare = (self.spawner_pid,) if self.spawner_pid is not None else ()
                self.cgroup.kill_all_but(self.process.pid, *spare)
        if "worker_error" in report or report.pop("restart_worker", False):
            self.stop()
        return report
