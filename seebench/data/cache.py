"""The content-addressed data cache under ``SEEBENCH_HOME``.

Files are stored as ``$SEEBENCH_HOME/data/<sha256[:2]>/<sha256>/<file name>``, so a file is
found by its checksum whatever it was called where it came from.

Nothing in the cache is trusted by its name: :func:`cached_file` returns a file only if its
content has the sha256 of its folder. Hashing a large file on every read would be slow, so a
verification is remembered by (size, modification time), in memory and in a hidden stamp file
``.<file name>.verified`` beside it; any write to the file changes its modification time, so
a damaged file is hashed again and caught.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.home import HOME_ENV, seebench_home  # noqa: F401  (re-exported)

#: The largest data file read or stored (a bound, not a limit real data sets come near).
DATA_MAX_BYTES = 64 * 1024 * 1024 * 1024
#: The largest data file read whole into memory as a task's rows (CSV, JSONL, Parquet, Excel,
#: a member of a ``files:`` set): real task data is under 100 MiB, so a 2 GB sparse file is
#: refused at once instead of being parsed for half a minute. Copies and checksums (``data
#: import``, the cache) stream and keep :data:`DATA_MAX_BYTES`.
TABLE_MAX_BYTES = 1024 * 1024 * 1024


def data_dir() -> Path:
    return seebench_home() / "data"


def sha256_file(path: Path, chunk_size: int = 1 << 20) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with safe_files.open_regular(path, DATA_MAX_BYTES) as handle:
        while chunk := handle.read(chunk_size):
            digest.update(chunk)
    return digest.hexdigest()


_verified: dict[tuple[str, int, int], str] = {}  # (path, size, mtime_ns) -> sha256


def verified_sha256(path: Path, stamp: bool = False) -> str:
    """The sha256 of ``path``, hashed again only when its size or modification time changed.

    With ``stamp`` the verification is also kept in a stamp file beside ``path`` (for files
    in the cache), so it outlives the process.
    """
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key in _verified:
        return _verified[key]
    stamp_path = path.with_name(f".{path.name}.verified")
    digest = _read_stamp(stamp_path, stat) if stamp else None
    if digest is None:
        digest = sha256_file(path)
        if stamp:
            _write_stamp(stamp_path, stat, digest)
    _verified[key] = digest
    return digest


def _read_stamp(stamp_path: Path, stat: os.stat_result) -> str | None:
    try:
        recorded = json.loads(safe_files.read_text(stamp_path, 4096))
        if recorded["size"] == stat.st_size and recorded["mtime_ns"] == stat.st_mtime_ns:
            digest = recorded["sha256"]
            return digest if isinstance(digest, str) else None
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return None


def _write_stamp(stamp_path: Path, stat: os.stat_result, digest: str) -> None:
    record = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": digest}
    # a read-only cache still works; the file is hashed again next time
    with contextlib.suppress(OSError):
        safe_files.atomic_write_text(stamp_path, json.dumps(record))


def _cache_entries(sha256: str) -> list[Path]:
    folder = data_dir() / sha256[:2] / sha256
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))


def cached_file(sha256: str) -> Path | None:
    """The cached file with this checksum (its content verified), or ``None``."""
    for path in _cache_entries(sha256):
        try:
            if verified_sha256(path, stamp=True) == sha256:
                return path
        except OSError:
            continue
    return None


def cache_damage(sha256: str) -> str | None:
    """One line naming a cached file whose content does not match ``sha256`` (else ``None``)."""
    if cached_file(sha256) is not None:
        return None
    for path in _cache_entries(sha256):
        try:
            actual = verified_sha256(path, stamp=True)
        except OSError as exc:
            return f"cached data file {path} cannot be read: {exc.strerror or exc}"
        return (
            f"cached data file {path} is damaged (sha256 {actual[:12]}..., expected "
            f"{sha256[:12]}...); run 'seebench data import DIR' or 'seebench data fetch' to "
            f"replace it"
        )
    return None


def store_file(source: Path, sha256: str, file_name: str | None = None) -> Path:
    """Copy ``source`` into the cache atomically (temp file + rename) and return its path.

    Other files in the checksum's folder (damaged copies) are removed.
    """
    folder = data_dir() / sha256[:2] / sha256
    target = folder / (file_name or source.name)
    safe_files.check_no_links(target, data_dir())  # before anything is made or removed there
    folder.mkdir(parents=True, exist_ok=True)
    for damaged in _cache_entries(sha256):  # a verified file would not be stored again
        if damaged != target:
            damaged.unlink(missing_ok=True)
    safe_files.check_no_links(target, data_dir())
    if target.is_dir():
        raise SeebenchError(
            f"cached data file {target} is a folder, not a file; remove it and import again"
        )
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
    try:
        with safe_files.open_regular(source, DATA_MAX_BYTES) as reader, os.fdopen(fd, "wb") as out:
            shutil.copyfileobj(reader, out)
        safe_files.check_no_links(target, data_dir())
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target
