"""Resolving a task's data sources to local files: shipped, cached, imported or fetched.

A source is a file (``url`` + ``sha256`` or a shipped ``path``), a Hugging Face dataset
(``hf``), a file inside an installed Python package (``package``; these two are handled in
:mod:`seebench.data.external`) or a set of files named in a checksum list (``files``; see
:mod:`seebench.data.file_sets`).
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlparse

from seebench import safe_files
from seebench.data.cache import cache_damage, cached_file, sha256_file, store_file
from seebench.errors import DataDamagedError, DataMissingError
from seebench.tasks.spec import TaskSpec

FETCH_TIMEOUT_S = 30

#: The ``sha256`` value declared for a source whose upstream file could not be verified yet.
UNPINNED = "unpinned"


@dataclass(frozen=True)
class Source:
    """One declared data file of a task."""

    task: str
    index: int
    name: str
    format: str
    url: str | None
    sha256: str | None
    path: Path | None
    options: dict[str, Any]
    split: str | None
    hf: dict[str, Any] | None = None  # {path, name, revision, split}: a Hugging Face dataset
    package: dict[str, Any] | None = None  # {name, path}: a file in an installed package
    base_dir: Path | None = None  # the task file's directory (for relative hf paths)
    files: Path | None = None  # a shipped checksum list: a file set (many cached files)

    @property
    def kind(self) -> str:
        """``hf``, ``package``, ``files`` (a file set), ``path`` (shipped beside the task) or
        ``url``."""
        if self.hf:
            return "hf"
        if self.package:
            return "package"
        if self.files:
            return "files"
        return "path" if self.path else "url"

    @property
    def pinned(self) -> bool:
        """Whether the source has a verified checksum (``sha256: unpinned`` has none)."""
        return self.sha256 != UNPINNED

    @property
    def file_name(self) -> str:
        if self.path is not None:
            return self.path.name
        if self.files is not None:
            return self.files.name
        if self.package is not None:
            return PurePosixPath(self.package["path"]).name
        if self.hf is not None:
            return PurePosixPath(self.hf["path"]).name or self.hf["path"]
        return PurePosixPath(urlparse(self.url or "").path).name or f"source-{self.index}"

    def escapes(self) -> bool:
        """Whether a ``path:`` or ``files:`` entry resolves (links followed) outside the task's
        folder: such a file is never read (a stranger's task could send any readable file to
        a model as prompt text)."""
        local = self.path if self.path is not None else self.files
        if local is None or self.base_dir is None:
            return False
        return not safe_files.inside(local, self.base_dir)

    def locate(self) -> Path | None:
        """The local file (or dataset directory) for this source if it is available."""
        if self.hf is not None:
            from seebench.data.external import hf_location

            return hf_location(self)
        if self.package is not None:
            from seebench.data.external import package_location

            return package_location(self)
        if self.files is not None:
            from seebench.data.file_sets import missing_members

            if self.escapes() or not self.files.is_file() or missing_members(self):
                return None
            return self.files
        if self.path is not None:
            if self.escapes():
                return None
            return self.path if self.path.is_file() else None
        if self.sha256 and not self.pinned:  # a file the user recorded ('seebench data add')
            from seebench.data.user_files import user_file_path

            return user_file_path(self.task, self.name)
        return cached_file(self.sha256) if self.sha256 and self.pinned else None

    @property
    def recorded_sha256(self) -> str | None:
        """The sha256 of the user-supplied file of an unpinned source (trust on first use)."""
        if self.pinned or self.kind != "url":
            return None
        from seebench.data.user_files import recorded_sha256

        return recorded_sha256(self.task, self.name)


def task_sources(task: TaskSpec) -> list[Source]:
    """The data sources declared by ``task``."""
    sources = []
    for index, raw in enumerate(task.data.get("sources", [])):
        path = (task.path.parent / raw["path"]) if raw.get("path") else None
        files = (task.path.parent / raw["files"]) if raw.get("files") else None
        sources.append(
            Source(
                task=task.name,
                index=index,
                name=raw.get("name") or _default_name(raw, index),
                format=raw.get("format", "hf" if raw.get("hf") else ""),
                url=raw.get("url"),
                sha256=raw.get("sha256"),
                path=path,
                options=dict(raw.get("options", {})),
                split=raw.get("split"),
                hf=dict(raw["hf"]) if raw.get("hf") else None,
                package=dict(raw["package"]) if raw.get("package") else None,
                base_dir=task.path.parent,
                files=files,
            )
        )
    return sources


def _default_name(raw: dict[str, Any], index: int) -> str:
    if raw.get("path"):
        return Path(raw["path"]).stem
    if raw.get("files"):
        return Path(raw["files"]).stem
    if raw.get("package"):
        return PurePosixPath(raw["package"]["path"]).name.split(".")[0]
    if raw.get("hf"):
        return PurePosixPath(raw["hf"]["path"]).name or f"source{index}"
    return f"source{index}"


def require_local(source: Source) -> Path:
    """The local path of ``source``; :class:`DataMissingError` naming how to get it if absent.

    A package file is verified against its sha256 (:mod:`seebench.data.external`); an hf
    source has no single file and is read with :func:`seebench.data.external.read_hf_source`.
    """
    if source.package is not None:
        from seebench.data.external import require_package_file

        return require_package_file(source)
    if source.escapes():
        what = "path" if source.path is not None else "files"
        raise DataMissingError(
            f"task {source.task!r}: data source {source.name!r}: {what} resolves outside the "
            f"task's folder {source.base_dir}; seebench reads only files inside it"
        )
    if source.files is not None:
        from seebench.data.file_sets import open_file_set

        return open_file_set(source).list_path
    local = source.locate()
    if local is not None:
        return local
    if source.path is not None:
        raise DataMissingError(f"task {source.task!r}: shipped data file {source.path} is missing")
    damage = cache_damage(source.sha256) if source.sha256 and source.pinned else None
    if damage:
        raise DataDamagedError(f"task {source.task!r}: {damage}")
    if not source.pinned:
        raise DataMissingError(
            f"task {source.task!r}: data file {source.file_name} is not available here and its "
            f"checksum is not pinned yet; obtain it from {source.url}, then 'seebench data add "
            f"{source.task} FILE' records it ('seebench data status {source.task}' shows the "
            "dataset's home)"
        )
    raise DataMissingError(
        f"task {source.task!r}: data file {source.file_name} (sha256 {source.sha256[:12]}...) "
        f"is not in the cache; run 'seebench data fetch {source.task}' or "
        f"'seebench data import DIR' (upstream: {source.url})"
    )


def fetch_source(source: Source, timeout: float = FETCH_TIMEOUT_S) -> Path:
    """Download ``source`` from its URL, verify its sha256 and store it in the cache (an hf
    source: load it with ``datasets`` and keep a copy in the cache). A file set is never
    fetched: its files are imported from a copy of the upstream data."""
    if source.files is not None:
        from seebench.data.file_sets import open_file_set

        return open_file_set(source).list_path  # raises, naming how to import the files
    if source.hf is not None:
        from seebench.data.external import read_hf_source

        read_hf_source(source)
        return source.locate()  # type: ignore[return-value]
    if source.package is not None:
        return require_local(source)  # nothing to download: the package ships it
    if source.locate() is not None:
        return source.locate()  # type: ignore[return-value]
    if not source.url or not source.sha256:
        raise DataMissingError(f"task {source.task!r}: source {source.name!r} has no url to fetch")
    if not source.pinned:
        raise DataMissingError(
            f"task {source.task!r}: source {source.name!r} has no pinned sha256 to verify a download"
        )
    import urllib.error  # http.client and ssl: only imported to fetch
    import urllib.request

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
