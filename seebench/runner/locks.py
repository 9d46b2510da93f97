"""One lock file per unit, so that two runs writing to the same output never compute the same
(model, method, task) twice.

The lock is an advisory ``flock`` on ``.<task>.lock`` beside the result. The kernel releases
it when its holder exits in any way (``kill -9`` included), so a lock left by a dead run is
taken over by the next one without any pid guessing; the pid written inside only serves the
message naming the other run. Where ``fcntl`` does not exist (Windows) units are not locked.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from seebench.safe_files import check_no_links, open_lock_file

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]


class UnitBusy(Exception):
    """Another live process holds the unit's lock; ``holder`` says which, in words."""

    def __init__(self, holder: str):
        super().__init__(holder)
        self.holder = holder


def lock_path(result_path: Path) -> Path:
    """``.<task>.lock`` beside ``<task>.json``."""
    return result_path.with_name(f".{result_path.stem}.lock")


@contextlib.contextmanager
def unit_lock(path: Path) -> Iterator[None]:
    """Hold the lock at ``path`` for the block; raise :class:`UnitBusy` at once if another
    live process holds it. The lock file is removed on exit."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    check_no_links(path)  # no folder made through a linked model or method folder
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = open_lock_file(path)  # never a link, never a FIFO (one-line error)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise UnitBusy(holder) from None
        # the previous holder may have removed the file between our open and our lock:
        # then we hold a lock on a deleted file and must start again with the new one
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        yield
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.close(fd)


def _holder(fd: int) -> str:
    try:
        text = os.pread(fd, 64, 0).decode("ascii", "replace").strip()
    except OSError:
        text = ""
    return f"pid {text}" if text.isdigit() else "another process"
