"""Ray failing under a sweep, told in one seebench line instead of Ray's own output.

Ray's raylet shares its fate with its dashboard agent: when the agent dies (``kill -9``, the
OOM killer) or does not come up in time (a loaded machine), the raylet exits, and the driver's
core worker then ends the whole process from C++ (``_exit(1)``) with one Ray log line. No
Python code of that process runs any more, so a *sentinel*, a small process started beside
the driver before Ray, watches it: the driver tells it the output folder and Ray's log folder
and, when the sweep ends normally, ``done``. If its pipe closes without ``done``, the driver
died abruptly and the sentinel prints the line (what Ray's log says happened, where the
finished units are, how to resume). A Ray that fails to start, or a call that fails because
the local Ray is gone, raises a :class:`~seebench.errors.SeebenchError` with the same line.

The sentinel runs this file as a script (``python -I ray_failures.py FD``): it needs only the
standard library, and nothing here imports Ray.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import subprocess
import sys
from pathlib import Path

#: What the raylet's log says when an agent it fate-shares with died or never started.
_AGENT_DIED = "one Ray agent failed, agent_name = "
_AGENT_LATE = "WaitForDashboardAgentPorts"
_TAIL_BYTES = 64 * 1024


def ray_cause(logs_dir: Path | str | None) -> str | None:
    """What the raylet log in ``logs_dir`` says stopped Ray (``None``: it says nothing we
    know). Only the log's last 64 KiB are read."""
    if logs_dir is None:
        return None
    path = Path(logs_dir) / "raylet.out"
    try:
        with open(path, "rb") as handle:  # Ray's own log, in the folder Ray reported
            handle.seek(max(0, os.fstat(handle.fileno()).st_size - _TAIL_BYTES))
            text = handle.read(_TAIL_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    if _AGENT_DIED in text:
        agent = text.rsplit(_AGENT_DIED, 1)[1].split()[0].split("/")[0].strip(",.")
        return f"Ray's {agent or 'agent'} died and the raylet exited with it"
    if _AGENT_LATE in text:
        return "Ray's dashboard agent did not start in time and the raylet exited"
    return None


def stopped_line(output: Path | str | None, logs_dir: Path | str | None, detail: str = "") -> str:
    """The line for a sweep on Ray that stopped abruptly: what Ray's log (or ``detail``)
    says happened, where the finished units are, how to resume."""
    cause = ray_cause(logs_dir) or detail
    what = (
        f"Ray stopped during the sweep ({cause})"
        if cause
        else "the sweep's driver ended abruptly (killed, or ended by Ray)"
    )
    where = f" in {output}" if output else ""
    logs = f"; Ray's logs: {logs_dir}" if logs_dir else ""
    return (
        f"--executor ray: {what}; the units that finished are kept{where}; run the same "
        f"command again to resume (finished units are not rerun){logs}"
    )


def start_failed_line(error: BaseException, logs_dir: Path | str | None = None) -> str:
    """The line for a local Ray that did not start (``error``: what ``ray.init`` raised)."""
    first = (str(error).strip().splitlines() or [type(error).__name__])[0]
    cause = ray_cause(logs_dir)
    why = f" ({cause})" if cause else ""
    return (
        f"--executor ray: Ray did not start{why}: {first[:300]}; nothing was run; run the same "
        "command again when the machine is less busy, or use --executor local"
    )


class Sentinel:
    """The driver's side of the sentinel: :meth:`tell` it facts, :meth:`done` at the end."""

    def __init__(self, output: Path | str | None = None) -> None:
        read_end, self._write = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-I", os.path.abspath(__file__), str(read_end)],  # stdlib only
            pass_fds=(read_end,),
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C reaches the driver, which says done
        )
        os.close(read_end)
        atexit.register(self.done)  # any exit that runs Python's exit handlers is not Ray's
        if output is not None:
            self.tell("output", output)

    def tell(self, key: str, value: Path | str) -> None:
        """Pass ``key value`` (one line) to the sentinel."""
        text = f"{key} {value}".replace("\n", " ")
        with contextlib.suppress(OSError):
            os.write(self._write, (text + "\n").encode("utf-8", "replace"))

    def done(self) -> None:
        """The sweep ended normally (or with a line of its own): the sentinel goes quietly."""
        if self._write < 0:
            return
        self.tell("done", "")
        with contextlib.suppress(OSError):
            os.close(self._write)
        self._write = -1
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)


def _watch(fd: int) -> int:
    """The sentinel: read facts until the pipe closes; without ``done``, print the line."""
    facts: dict[str, str] = {}
    buffer = b""
    with contextlib.suppress(OSError):
        while chunk := os.read(fd, 4096):
            buffer += chunk
    for line in buffer.decode("utf-8", "replace").splitlines():
        key, _, value = line.partition(" ")
        facts[key] = value
    if "done" in facts:
        return 0
    sys.stderr.write(f"error: {stopped_line(facts.get('output'), facts.get('logs'))}\n")
    sys.stderr.flush()
    return 1


if __name__ == "__main__":
    raise SystemExit(_watch(int(sys.argv[1])))
