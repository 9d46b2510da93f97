"""``url:`` sources: a file downloaded once, verified by its sha256 and kept in the cache;
with ``sha256: unpinned``, a file the user supplies (``seebench data add``)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from seebench.data.cache import cache_damage, cached_file, sha256_file, store_file
from seebench.data.kinds.base import SourceKind
from seebench.errors import DataDamagedError, DataMissingError

if TYPE_CHECKING:
    from seebench.data.sources import Source


class UrlKind(SourceKind):
    """A downloadable file: the kind of every source that declares no other."""

    name = "url"
    key = "url"

    def claims(self, source: Source) -> bool:
        return True

    def claims_declared(self, raw: dict) -> bool:
        return True

    def file_name(self, source: Source) -> str:
        return PurePosixPath(urlparse(source.url or "").path).name or f"source-{source.index}"

    def locate(self, source: Source) -> Path | None:
        if self.user_supplied(source):  # a file the user recorded ('seebench data add')
            from seebench.data.user_files import user_file_path

            return user_file_path(source.task, source.name)
        return cached_file(source.sha256) if source.sha256 and source.pinned else None

    def user_supplied(self, source: Source) -> bool:
        return bool(source.sha256) and not source.pinned

    def require(self, source: Source) -> Path:
        local = self.locate(source)
        if local is not None:
            return local
        damage = cache_damage(source.sha256) if source.sha256 and source.pinned else None
        if damage:
            raise DataDamagedError(f"task {source.task!r}: {damage}")
        if not source.pinned:
            raise DataMissingError(
                f"task {source.task!r}: data file {source.file_name} is not available here and "
                f"its checksum is not pinned yet; obtain it from {source.url}, then 'seebench "
                f"data add {source.task} FILE' records it ('seebench data status {source.task}' "
                "shows the dataset's home)"
            )
        raise DataMissingError(
            f"task {source.task!r}: data file {source.file_name} (sha256 "
            f"{str(source.sha256)[:12]}...) is not in the cache; run 'seebench data fetch "
            f"{source.task}' or 'seebench data import DIR' (upstream: {source.url})"
        )

    def fetch(self, source: Source, timeout: float) -> Path:
        return fetch_file(self, source, timeout)


def fetch_file(kind: SourceKind, source: Source, timeout: float) -> Path:
    """The local file of ``source`` (as ``kind`` locates it), else its ``url`` downloaded,
    verified against its pinned sha256 and stored in the cache."""
    local = kind.locate(source)
    if local is not None:
        return local
    if not source.url or not source.sha256:
        raise DataMissingError(f"task {source.task!r}: source {source.name!r} has no url to fetch")
    if not source.pinned:
        raise DataMissingError(
            f"task {source.task!r}: source {source.name!r} has no pinned sha256 to verify "
            "a download"
        )
    return _download(source, timeout)


def _download(source: Source, timeout: float) -> Path:
    """Download ``source.url``, verify its sha256 and store it in the cache."""
    import urllib.error  # http.client and ssl: only imported to fetch
    import urllib.request

    assert source.url is not None  # fetch_file() checked it
    fd, tmp = tempfile.mkstemp(prefix="seebench-fetch-")
    os.close(fd)
    try:
        try:
            request = urllib.request.Request(source.url, headers={"User-Agent": "seebench"})
            with (
                urllib.request.urlopen(request, timeout=timeout) as response,
                open(tmp, "wb") as out,
            ):
                while chunk := response.read(1 << 20):
                    out.write(chunk)
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise DataMissingError(
                f"task {source.task!r}: cannot download {source.url}: {reason}"
            ) from None
        actual = sha256_file(Path(tmp))
        if actual != source.sha256:
            raise DataMissingError(
                f"task {source.task!r}: {source.url} has sha256 {actual}, expected {source.sha256}"
            )
        return store_file(Path(tmp), source.sha256, source.file_name)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
