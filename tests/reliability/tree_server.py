"""A stand-in model server that forks a process tree before it serves: a child in its group,
an orphaned grandchild (its parent exits at once) and a child in a session of its own. Their
pids go to ``$STAND_IN_DIR/{child,orphan,detached}.pid``; then it becomes the stand-in server
of ``tests/models/servers`` (same pid), which speaks the protocol."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

STAND_IN = Path(__file__).parents[1] / "models" / "servers" / "stand_in_server.py"
SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)"]


def main() -> None:
    if "--version" not in sys.argv:
        _fork_tree(Path(os.environ["STAND_IN_DIR"]))
    os.execv(sys.executable, [sys.executable, str(STAND_IN), *sys.argv[1:]])


def _fork_tree(folder: Path) -> None:
    quiet = {
        "stdin": subprocess.DEVNULL,
        "stdout": subprocess.DEVNULL,
        "stderr": subprocess.DEVNULL,
    }
    child = subprocess.Popen(SLEEPER, **quiet)
    detached = subprocess.Popen(SLEEPER, start_new_session=True, **quiet)
    subprocess.run(  # the shell exits at once: its sleeper is an orphan
        ["sh", "-c", f'sleep 600 >/dev/null 2>&1 & echo $! > "{folder}/orphan.pid.tmp"'],
        check=True,
        **quiet,
    )
    os.replace(folder / "orphan.pid.tmp", folder / "orphan.pid")
    (folder / "child.pid").write_text(str(child.pid))
    (folder / "detached.pid").write_text(str(detached.pid))


if __name__ == "__main__":
    main()
