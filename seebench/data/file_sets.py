"""File-set sources: many upstream files named in a checksum list shipped beside the task.

A dataset made of thousands of files (one JSON per case, source files, repository archives)
is declared as one source whose ``files`` key names a list in ``sha256sum`` format::

    - name: doc_cases
      files: data/doc_cases.sha256   # "<sha256>  <upstream path>" per line
      url: https://github.com/OWNER/REPO/tree/COMMIT   # where the upstream paths live
      format: copilot_doc

Every listed file is found in the data cache by its checksum (``seebench data import DIR``
copies them in like any other file), and the source's reader receives a :class:`FileSet`
instead of one path. The list's own sha256 identifies the source in results.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from seebench import safe_files
from seebench.data.cache import (
    TABLE_MAX_BYTES,
    cache_damage,
    cached_file,
    data_dir,
    sha256_file,
)
from seebench.errors import DataDamagedError, DataMissingError, SeebenchError

if TYPE_CHECKING:
    from seebench.data.sources import Source

LINE = re.compile(r"^([0-9a-f]{64}) [ *](.+)$")


@dataclass(frozen=True)
class Member:
    """One file of a file set: its checksum and its path upstream (relative, POSIX)."""

    sha256: str
    path: str

    @property
    def file_name(self) -> str:
        return self.path.rsplit("/", 1)[-1]


def read_file_list(path: Path) -> list[Member]:
    """The members listed in ``path``; a malformed line, an unsafe path or a path listed twice
    is an error naming the file and line."""
    try:
        text = safe_files.read_text(path, 256 * 1024 * 1024)
    except (OSError, UnicodeDecodeError) as exc:
        raise SeebenchError(f"{path}: cannot read the file list: {exc}") from None
    members: list[Member] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = LINE.match(line)
        if match is None:
            raise SeebenchError(f"{path}:{number}: expected '<sha256>  <path>', got {line[:80]!r}")
        digest, name = match.groups()
        parts = name.split("/")
        if "" in parts or "." in parts or ".." in parts:
            raise SeebenchError(f"{path}:{number}: {name!r} is not a clean relative path")
        if name in seen:
            raise SeebenchError(f"{path}:{number}: {name!r} is listed twice")
        seen.add(name)
        members.append(Member(digest, name))
    if not members:
        raise SeebenchError(f"{path}: the file list is empty")
    return members


def file_list_sha256(path: Path) -> str:
    """The checksum of the list itself (what results record for the source)."""
    return sha256_file(path)


def member_sources(source: Source) -> list[Source]:
    """One plain checksum source per member (for ``data import`` and ``data status``)."""
    assert source.files is not None
    base = (source.url or "").rstrip("/")
    return [
        replace(
            source,
            name=member.file_name,
            url=f"{base}/{member.path}" if base else None,
            sha256=member.sha256,
            files=None,
            path=None,
        )
        for member in read_file_list(source.files)
    ]


@dataclass(frozen=True)
class FileSet(Mapping[str, Path]):
    """The files of a file-set source: upstream path -> the verified cached file, and, when
    known, upstream path -> the file's sha256 (``digests``: what a reader may key a cache of
    its own work by)."""

    list_path: Path
    paths: dict[str, Path]
    digests: dict[str, str] | None = None

    def __getitem__(self, name: str) -> Path:
        return self.paths[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)

    def read_text(self, name: str, encoding: str = "utf-8") -> str:
        """The text of member ``name``."""
        return safe_files.read_text(self.paths[name], TABLE_MAX_BYTES, encoding)

    def under(self, prefix: str) -> list[str]:
        """The member paths inside folder ``prefix`` (sorted)."""
        folder = prefix.rstrip("/") + "/"
        return sorted(name for name in self.paths if name.startswith(folder))


def _stamp_path(list_sha256: str) -> Path:
    return data_dir() / "file-sets" / f"{list_sha256}.json"


def _read_stamp(path: Path) -> dict[str, list]:
    """sha256 -> [cached path, size, mtime_ns] of members verified earlier ({} if unusable)."""
    try:
        recorded = json.loads(safe_files.read_text(path, 256 * 1024 * 1024))
    except (OSError, ValueError):
        return {}
    return recorded if isinstance(recorded, dict) else {}


def _still_verified(entry: object, root: str) -> str | None:
    """The cached file (under ``root``) of a stamp entry if it is unchanged since it was
    hashed (plain strings: this runs for every member of large sets)."""
    if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)):
        return None
    if not entry[0].startswith(root) or "/../" in entry[0]:
        return None
    try:
        stat = os.stat(entry[0])
    except OSError:
        return None
    if stat.st_size == entry[1] and stat.st_mtime_ns == entry[2]:
        return entry[0]
    return None


def _write_stamp(path: Path, located: dict[str, Path]) -> None:
    record = {}
    for digest, local in located.items():
        stat = local.stat()
        record[digest] = [str(local), stat.st_size, stat.st_mtime_ns]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only cache still works; members are verified one by one next time


def locate_members(source: Source) -> tuple[dict[str, Path], list[Member]]:
    """The cached file of every member found intact (by upstream path) and the members that
    are missing or damaged.

    Verifying thousands of files one stamp at a time is slow, so the list remembers, in
    ``$SEEBENCH_HOME/data/file-sets/<list sha256>.json``, each member's cached file with the
    size and modification time it had when its content was hashed; an unchanged file is
    trusted, any other is verified again by :func:`~seebench.data.cache.cached_file`.
    """
    assert source.files is not None
    members = read_file_list(source.files)
    stamp = _stamp_path(file_list_sha256(source.files))
    recorded = _read_stamp(stamp)
    root = str(data_dir()) + os.sep
    found: dict[str, Path] = {}
    by_digest: dict[str, Path] = {}
    missing: list[Member] = []
    hashed_again = False
    for member in members:
        local = by_digest.get(member.sha256)
        if local is None:
            trusted = _still_verified(recorded.get(member.sha256), root)
            local = Path(trusted) if trusted else None
        if local is None:
            local = cached_file(member.sha256)
            hashed_again = True
        if local is None:
            missing.append(member)
            continue
        found[member.path] = by_digest[member.sha256] = local
    if hashed_again and not missing:
        _write_stamp(stamp, by_digest)
    return found, missing


def missing_members(source: Source) -> list[Member]:
    """The members of ``source`` that are not (intact) in the cache."""
    return locate_members(source)[1]


def open_file_set(source: Source) -> FileSet:
    """Every member of ``source`` from the cache; a missing or damaged member is an error
    that counts them, names the first and says how to import them."""
    assert source.files is not None
    if not source.files.is_file():
        raise DataMissingError(f"task {source.task!r}: file list {source.files} is missing")
    paths, missing = locate_members(source)
    if missing:
        first = missing[0]
        damage = cache_damage(first.sha256)
        if damage:
            raise DataDamagedError(f"task {source.task!r}: {damage}")
        raise DataMissingError(
            f"task {source.task!r}: {len(missing)} of {len(missing) + len(paths)} files of "
            f"source {source.name!r} are not in the cache (first: {first.path}); run "
            f"'seebench data import DIR' on a copy of the upstream data"
            + (f" ({source.url})" if source.url else "")
        )
    # a cached file lies in the folder named by its (verified) sha256
    return FileSet(source.files, paths, {name: path.parent.name for name, path in paths.items()})
