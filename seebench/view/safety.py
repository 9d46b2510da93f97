"""Reading results that may be hostile: stay inside the given folders, open regular files only.

The viewer serves what it was given and nothing else. Every path it reads is resolved (links
included) and must stay inside one of the results folders; it must name a regular file (a FIFO
named ``*.json`` would block a reader forever, a device never ends) and is read with a size
bound. Functions here return ``None`` or raise :class:`Refused` with a one-line reason; they
never follow a link out of a folder.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

#: The largest result JSON the viewer parses (a real one is a few kilobytes).
MAX_RESULT_BYTES = 16 * 1024 * 1024
#: The largest artifact shown inside a page; larger ones load only when asked for.
INLINE_ARTIFACT_BYTES = 64 * 1024


class Refused(Exception):
    """A path the viewer will not read, with the reason as its message."""


def inside(path: Path, root: Path) -> Path:
    """``path`` resolved (links followed), if it lies inside the resolved ``root``.

    Raises :class:`Refused` when it resolves outside (a ``..`` or a link out) or cannot be
    resolved (a link loop)."""
    try:
        resolved = Path(os.path.realpath(path, strict=False))
        base = Path(os.path.realpath(root, strict=False))
    except (OSError, RuntimeError, ValueError) as exc:
        raise Refused(f"cannot resolve: {exc}") from None
    if resolved != base and base not in resolved.parents:
        raise Refused("resolves outside the results folder")
    return resolved


def regular_file(path: Path, root: Path, max_bytes: int | None = None) -> os.stat_result:
    """The ``stat`` of ``path`` after checking it is a regular file inside ``root``, no larger
    than ``max_bytes`` (``None``: any size). Raises :class:`Refused` otherwise."""
    resolved = inside(path, root)
    try:
        info = os.stat(resolved)
    except OSError as exc:
        raise Refused(f"cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise Refused(f"is {kind}")
    if max_bytes is not None and info.st_size > max_bytes:
        raise Refused(f"is {info.st_size} bytes, more than the {max_bytes} the viewer reads")
    return info


def read_bytes(path: Path, root: Path, max_bytes: int, offset: int = 0) -> bytes:
    """At most ``max_bytes`` of the regular file ``path`` inside ``root`` from ``offset``; opened
    without blocking so that a file swapped for a FIFO after the check cannot hang the reader."""
    regular_file(path, root)
    resolved = inside(path, root)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(resolved, flags)
    except OSError as exc:
        raise Refused(f"cannot open: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Refused("is not a regular file")
        if offset:
            os.lseek(fd, offset, os.SEEK_SET)
        chunks, left = [], max_bytes
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def open_regular(path: Path, root: Path) -> int:
    """A read-only file descriptor of the regular file ``path`` inside ``root`` (the caller
    closes it)."""
    resolved = inside(path, root)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(resolved, flags)
    except OSError as exc:
        raise Refused(f"cannot open: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise Refused("is not a regular file")
    return fd
