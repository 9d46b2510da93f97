"""Safe file operations for every file seebench writes or reads.

Writes never follow a symbolic link: the file itself is opened with ``O_NOFOLLOW`` (or
replaced atomically, which swaps the link rather than writing through it, after a check that
refuses a link there), and the folders between a known root and the file must not be links
either: a root is passed by the caller or declared once with :func:`add_root` (the output
folder of a run, the data cache), and every write below it is checked. A file opened to append
to or to lock must also have a single link (a hard link to a file elsewhere is refused). Reads
open only regular files, without blocking (a FIFO named ``*.json`` is refused instead of
hanging) and up to a size bound. Every refusal is an :class:`UnsafeFileError` with
one line naming the path and the reason; it never quotes the file's content.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError

#: The default bound of one read (results, samples and caches are far smaller).
MAX_READ_BYTES = 1024 * 1024 * 1024
#: The bound of a user-given or read-back text file parsed whole: a manifest, a record, a
#: config, a repository's source file (real ones are far smaller).
TEXT_MAX_BYTES = 64 * 1024 * 1024
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class UnsafeFileError(SeebenchError, OSError):
    """A file was not opened: a link, not a regular file, or too large (one line)."""


class NotTextError(SeebenchError, UnicodeDecodeError):
    """A file read as text holds bytes that are not text in its encoding: one line naming
    the file and the offset of the first bad byte (never the file's content). It is a
    :class:`UnicodeDecodeError` too, so readers that catch that still do."""

    def __init__(
        self, path: Path | str, error: UnicodeDecodeError, offset: int | None = None
    ) -> None:
        bad = error.object[error.start : error.end]
        super().__init__(error.encoding, bytes(bad), 0, len(bad), error.reason)
        self.path = str(path)
        self.offset = error.start if offset is None else offset

    def __str__(self) -> str:
        encoding = "UTF-8" if self.encoding.replace("-", "").lower() == "utf8" else self.encoding
        return f"{self.path}: not {encoding} text (byte {self.offset}); save it as {encoding}"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as what rebuilds it (a worker's error reaches the driver intact)."""
        error = UnicodeDecodeError(self.encoding, self.object, 0, len(self.object), self.reason)
        return (NotTextError, (self.path, error, self.offset))


#: Folders declared with :func:`add_root` (absolute, both as given and links resolved).
_ROOTS: set[str] = set()


def add_root(root: Path | str, resolved: bool = True) -> None:
    """Declare ``root`` a known root: from now on no write in this process goes through a
    folder below it that is a symbolic link (``root`` itself may be one). With ``resolved``
    the folder it links to is declared too (writers may name paths either way)."""
    _ROOTS.add(os.path.abspath(root))
    if resolved:
        with contextlib.suppress(OSError, RuntimeError):
            _ROOTS.add(os.path.realpath(root))


def known_roots(path: Path | str) -> list[Path]:
    """The declared roots that ``path`` (made absolute, links not resolved) lies below."""
    absolute = os.path.abspath(path)
    return [
        Path(root) for root in sorted(_ROOTS) if absolute.startswith(root.rstrip(os.sep) + os.sep)
    ]


def check_no_links(path: Path | str, root: Path | str | None = None) -> None:
    """Raise :class:`UnsafeFileError` when ``path`` is a symbolic link, or when a folder
    between ``root`` (not included) or any root declared with :func:`add_root` and ``path``
    is one. Missing parts are fine."""
    path = Path(path)
    if path.is_symlink():
        raise UnsafeFileError(f"{path}: is a symbolic link; seebench does not write through links")
    for known in [*([root] if root is not None else []), *known_roots(path)]:
        _check_folders(path, known)


def _check_folders(path: Path, root: Path | str) -> None:
    """Refuse a linked folder between ``root`` (not included) and ``path``."""
    try:
        relative = Path(os.path.abspath(path)).parent.relative_to(Path(os.path.abspath(root)))
    except ValueError:
        return
    root = Path(os.path.abspath(root))
    current = root
    for part in relative.parts:
        current = current / part
        if current.is_symlink():
            raise UnsafeFileError(
                f"{path}: folder {current} is a symbolic link; seebench does not write through links"
            )


def open_for_write(
    path: Path | str, *, append: bool = False, exclusive: bool = False, mode: int = 0o644
) -> int:
    """A descriptor of ``path`` opened for writing (created if missing) that is never a link
    (nor below a linked folder of a known root), always a regular file and never a file with
    another hard link; truncated unless ``append``. The caller closes it."""
    check_no_links(path)
    flags = os.O_WRONLY | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC
    flags |= os.O_APPEND if append else 0
    flags |= os.O_EXCL if exclusive else 0
    try:
        fd = os.open(path, flags, mode)
    except OSError as error:
        raise _refusal(path, error) from None
    _require_regular(fd, path, single_link=True)
    if not append and not exclusive:
        os.ftruncate(fd, 0)
    os.set_blocking(fd, True)
    return fd


def open_lock_file(path: Path | str, mode: int = 0o644) -> int:
    """A read-write descriptor of a lock file (created if missing, not truncated), refusing
    links (the file, or a linked folder below a known root), anything but a regular file and
    a file with another hard link (writing the pid would change that other file)."""
    check_no_links(path)
    flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW | _NONBLOCK | _CLOEXEC
    try:
        fd = os.open(path, flags, mode)
    except OSError as error:
        raise _refusal(path, error) from None
    _require_regular(fd, path, single_link=True)
    os.set_blocking(fd, True)
    return fd


def append_text(path: Path | str, text: str, root: Path | str | None = None) -> None:
    """Append ``text`` (UTF-8) to ``path`` without following a link."""
    check_no_links(path, root)
    fd = open_for_write(path, append=True)
    with os.fdopen(fd, "a", encoding="utf-8") as handle:
        handle.write(text)


def atomic_write_text(path: Path | str, text: str, root: Path | str | None = None) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one; a link
    at ``path`` (or a linked folder below ``root`` or a declared root) is refused."""
    atomic_write_bytes(path, text.encode("utf-8"), root)


def atomic_write_bytes(path: Path | str, data: bytes, root: Path | str | None = None) -> None:
    """:func:`atomic_write_text` of bytes."""
    path = Path(path)
    check_no_links(path, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        check_no_links(path, root)  # a link planted meanwhile is refused too
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_bytes(path: Path | str, limit: int = MAX_READ_BYTES, follow: bool = True) -> bytes:
    """The content of the regular file ``path`` (at most ``limit`` bytes, else refused),
    opened without blocking; without ``follow`` a symbolic link at ``path`` is refused."""
    flags = os.O_RDONLY | _NONBLOCK | _CLOEXEC | (0 if follow else _NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise _refusal(path, error, "read") from None
    try:
        size = _require_regular(fd, path, close=False)
        if size > limit:
            raise UnsafeFileError(f"{path}: {size} bytes is more than the {limit} seebench reads")
        os.set_blocking(fd, True)
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 20):
            total += len(chunk)
            if total > limit:  # grew while read
                raise UnsafeFileError(f"{path}: more than the {limit} bytes seebench reads")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def open_regular(path: Path | str, limit: int = MAX_READ_BYTES, binary: bool = True, **kw):
    """A file object of the regular file ``path`` for reading (refused when it is not one or
    is larger than ``limit``), opened without blocking; ``kw`` go to :func:`open` in text
    mode."""
    try:
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _CLOEXEC)
    except OSError as error:
        raise _refusal(path, error) from None
    try:
        size = _require_regular(fd, path, close=False)
        if size > limit:
            raise UnsafeFileError(f"{path}: {size} bytes is more than the {limit} seebench reads")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb" if binary else "r", **kw)


def check_regular(path: Path | str, limit: int = MAX_READ_BYTES) -> None:
    """Refuse ``path`` unless it is a regular file within ``limit`` (checked through a
    non-blocking open), for readers that must open the path themselves (pandas)."""
    open_regular(path, limit).close()


def read_text(
    path: Path | str,
    limit: int = MAX_READ_BYTES,
    encoding: str = "utf-8",
    errors: str = "strict",
    follow: bool = True,
) -> str:
    """:func:`read_bytes` decoded. Bad bytes (with ``errors="strict"``) raise
    :class:`NotTextError`, one line naming ``path`` (a ``UnicodeDecodeError`` too); a UTF-8
    byte-order mark is kept, as :meth:`pathlib.Path.read_text` keeps it."""
    data = read_bytes(path, limit, follow)
    try:
        return data.decode(encoding, errors)
    except UnicodeDecodeError as error:
        raise NotTextError(path, error) from None


def read_rows(
    path: Path | str, delimiter: str = ",", limit: int = TEXT_MAX_BYTES
) -> list[dict[str, str]]:
    """The rows of the CSV (or, with ``delimiter="\\t"``, TSV) file ``path`` as dicts keyed
    by its header, read with :func:`read_text` (a UTF-8 byte-order mark is dropped)."""
    import csv
    import io

    text = read_text(path, limit).removeprefix("\ufeff")
    return list(csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter))


def read_head(path: Path | str, size: int) -> bytes:
    """The first ``size`` bytes of the regular file ``path`` (a FIFO or device is refused,
    a larger file is fine): for magic numbers and headers."""
    with open_regular(path, limit=1 << 62) as handle:
        return handle.read(size)


def regular_file(path: Path | str) -> bool:
    """Whether ``path`` is a regular file (links followed) without opening it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def inside(path: Path | str, *roots: Path | str) -> bool:
    """Whether ``path``, links resolved, lies inside one of ``roots`` (links resolved)."""
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError):  # a link loop
        return False
    for root in roots:
        try:
            real.relative_to(Path(root).resolve())
            return True
        except (ValueError, OSError, RuntimeError):
            continue
    return False


def _require_regular(
    fd: int, path: Path | str, close: bool = True, single_link: bool = False
) -> int:
    """The size of the regular file open at ``fd``; otherwise refuse (closing ``fd``). With
    ``single_link``, a file with more than one hard link is refused too."""
    info = os.fstat(fd)
    problem = None
    if not stat.S_ISREG(info.st_mode):
        problem = "not a regular file; seebench opens only regular files"
    elif single_link and info.st_nlink > 1:
        problem = (
            f"has {info.st_nlink} hard links; seebench does not write to a file linked elsewhere"
        )
    if problem is not None:
        if close:
            os.close(fd)
        raise UnsafeFileError(f"{path}: {problem}")
    return info.st_size


def _refusal(path: Path | str, error: OSError, action: str = "write through") -> OSError:
    import errno

    if error.errno == errno.ELOOP:
        return UnsafeFileError(f"{path}: is a symbolic link; seebench does not {action} links")
    if error.errno == errno.ENXIO:  # a FIFO without a reader, opened for writing
        return UnsafeFileError(f"{path}: not a regular file; seebench opens only regular files")
    return error
