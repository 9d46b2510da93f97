"""The supervisor between seebench and a model server: no server outlives seebench.

seebench starts this script (standard library only, run as ``python -I supervise.py``) in a
new session; it starts the server in a process group of its own and then watches three
things every half second:

- its standard input, a pipe whose other end only seebench holds: end-of-file means seebench
  is gone, however it ended (``kill -9`` included, which no handler in seebench can see);
- its parent's pid (a forked child of seebench could keep the pipe open);
- the server: when it exits, the supervisor writes its exit code to the log and exits with it.

On SIGTERM, SIGINT or SIGHUP, or when seebench is gone, it sends SIGTERM to the server's
whole process group, waits up to the grace period, then sends SIGKILL to the group and to
every other descendant. On Linux the supervisor is a child subreaper
(``PR_SET_CHILD_SUBREAPER``), so a server's child whose parent exits stays its descendant
rather than becoming init's.

If the supervisor itself is killed (``kill -9``), the server gets SIGKILL from the kernel
(``PR_SET_PDEATHSIG``), and a *guardian* forked before the server starts kills the rest: it
reads a pipe that only the supervisor writes to, on which the supervisor sends the server's
process group and, every poll, the descendants it sees (pid and start time, from ``/proc``);
at end-of-file (the supervisor is gone, however) the guardian SIGKILLs that group and every
recorded descendant that still runs with the same start time. A process started and detached
in the last half second before such a kill can escape.

Usage: ``supervise.py GRACE_S PID_FILE -- COMMAND [ARG...]``; the server's pid is written to
``PID_FILE`` once it has started.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
POLL_S = 0.5


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _prctl(option: int, value: int) -> None:
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _start_time(pid: int) -> str | None:
    """The start time of ``pid`` (field 22 of ``/proc/PID/stat``), or ``None`` if gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            fields = handle.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[19].decode() if len(fields) > 19 else None


def _descendants(root: int) -> set[int]:
    """The pids below ``root`` (Linux ``/proc``; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return set()
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                ppid = int(handle.read().rsplit(b")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _kill_if_same(pid: int, started: str | None) -> None:
    """SIGKILL ``pid`` unless it is gone or its pid now names another process."""
    if started is not None and _start_time(pid) == started:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _guard(read_end: int) -> None:  # pragma: no cover - runs in the forked guardian
    """Wait for the supervisor's pipe to close, then kill what it reported."""
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    data = b""
    while chunk := os.read(read_end, 65536):
        data += chunk
    groups, processes = set(), {}
    for line in data.decode("ascii", "replace").splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "group" and rest.isdigit():
            groups.add(int(rest))
        elif kind == "pid":
            pid, _, started = rest.partition(" ")
            if pid.isdigit():
                processes[int(pid)] = started
    for pgid in groups:
        _signal_group(pgid, signal.SIGKILL)
    for number, started in processes.items():
        _kill_if_same(number, started)


class _Guardian:
    """The forked guardian (see the module docstring) and what it has been told."""

    def __init__(self) -> None:
        read_end, self.write_end = os.pipe()
        self.told: set[int] = set()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the guardian
            os.close(self.write_end)
            try:
                _guard(read_end)
            finally:
                os._exit(0)
        os.close(read_end)

    def tell(self, line: str) -> None:
        with contextlib.suppress(OSError):
            os.write(self.write_end, f"{line}\n".encode("ascii"))

    def watch(self) -> None:
        """Tell the guardian about descendants it does not know yet."""
        for pid in _descendants(os.getpid()) - self.told - {self.pid}:
            started = _start_time(pid)
            if started is not None:
                self.tell(f"pid {pid} {started}")
                self.told.add(pid)

    def kill_descendants(self) -> None:
        """SIGKILL every descendant but the guardian (those that left the server's group)."""
        for pid in _descendants(os.getpid()) - {self.pid}:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            while os.waitpid(-1, os.WNOHANG)[0] > 0:  # adopted orphans: reap them
                pass


def _say(text: str) -> None:
    sys.stdout.write(f"[seebench supervisor] {text}\n")
    sys.stdout.flush()


def _signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def _stop(server: subprocess.Popen, grace_s: float) -> int | None:
    """SIGTERM to the server's group, SIGKILL after ``grace_s``; the server's exit code."""
    _signal_group(server.pid, signal.SIGTERM)
    try:
        code = server.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        _say(f"the server did not stop within {grace_s:g} s: SIGKILL")
        code = None
    _signal_group(server.pid, signal.SIGKILL)  # the server's own children, if any are left
    if code is None:
        code = server.wait()
    return code


def main(argv: list[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        sys.stderr.write("usage: supervise.py GRACE_S PID_FILE -- COMMAND [ARG...]\n")
        return 2
    grace_s, pid_file, command = float(argv[0]), argv[1], argv[3:]
    parent = os.getppid()
    requested: list[int] = []
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda number, frame: requested.append(number))
    linux = sys.platform.startswith("linux")
    if linux:
        _prctl(PR_SET_CHILD_SUBREAPER, 1)
    guardian = _Guardian() if linux else None
    try:
        server = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            process_group=0,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
    except OSError as exc:
        _say(f"cannot start {command[0]}: {exc.strerror or exc}")
        return 127
    if guardian is not None:
        guardian.tell(f"group {server.pid}")
    with open(pid_file + ".tmp", "w") as handle:
        handle.write(str(server.pid))
    os.replace(pid_file + ".tmp", pid_file)
    stdin_open = True
    while True:
        code = server.poll()
        if code is not None:
            _say(f"the server exited with code {code}")
            _signal_group(server.pid, signal.SIGKILL)
            if guardian is not None:
                guardian.kill_descendants()
            return code if code >= 0 else 128 - code
        if guardian is not None:
            guardian.watch()
        if requested:
            reason = f"stop requested (signal {requested[0]})"
            break
        if os.getppid() != parent:
            reason = "seebench is gone (parent changed)"
            break
        if not stdin_open:
            time.sleep(POLL_S)
            continue
        try:
            readable, _, _ = select.select([sys.stdin], [], [], POLL_S)
        except (OSError, ValueError):
            stdin_open = False
            continue
        if readable and not os.read(sys.stdin.fileno(), 4096):
            reason = "seebench is gone (its pipe closed)"
            break
    _say(f"stopping the server: {reason}")
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    code = _stop(server, grace_s)
    if guardian is not None:
        guardian.kill_descendants()
    _say(f"the server stopped (code {code})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
