"""The supervisor between seebench and a model server: no server outlives seebench.

seebench starts this script (standard library only, run as ``python -I supervise.py``) in a
new session; it starts the server in a process group of its own and then watches three
things every half second:

- its standard input, a pipe whose other end only seebench holds: end-of-file means seebench
  is gone, however it ended (``kill -9`` included, which no handler in seebench can see);
- its parent's pid (a forked child of seebench could keep the pipe open);
- the server: when it exits, the supervisor writes its exit code to the log and exits with it.

On SIGTERM, SIGINT or SIGHUP, or when seebench is gone, it sends SIGTERM to the server's
whole process group, waits up to the grace period, then sends SIGKILL to the group. On Linux
the server also gets SIGKILL if the supervisor itself is killed (``PR_SET_PDEATHSIG``).

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
POLL_S = 0.5


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
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
    with open(pid_file + ".tmp", "w") as handle:
        handle.write(str(server.pid))
    os.replace(pid_file + ".tmp", pid_file)
    stdin_open = True
    while True:
        code = server.poll()
        if code is not None:
            _say(f"the server exited with code {code}")
            _signal_group(server.pid, signal.SIGKILL)
            return code if code >= 0 else 128 - code
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
    _say(f"the server stopped (code {code})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
