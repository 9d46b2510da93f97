"""Resolving a task's data sources to local files: shipped, cached, imported or fetched.

A source is a file (``url`` + ``sha256`` or a shipped ``path``), a Hugging Face dataset
(``hf``), a file inside an installed Python package (``package``) or a set of files named in
a checksum list (``files``). What differs between them lives in one class per kind
(:mod:`seebench.data.kinds`); :class:`Source` holds the declaration and asks its kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench.tasks.spec import TaskSpec

if TYPE_CHECKING:
    from seebench.data.kinds import SourceKind

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
    def handler(self) -> SourceKind:
        """The source's kind (:mod:`seebench.data.kinds`): how it is found, fetched, read."""
        from seebench.data.kinds import kind_of

        return kind_of(self)

    @property
    def kind(self) -> str:
        """``hf``, ``package``, ``files`` (a file set), ``path`` (shipped beside the task) or
        ``url``."""
        return self.handler.name

    @property
    def pinned(self) -> bool:
        """Whether the source has a verified checksum (``sha256: unpinned`` has none)."""
        return self.sha256 != UNPINNED

    @property
    def file_name(self) -> str:
        return self.handler.file_name(self)

    def escapes(self) -> bool:
        """Whether a ``path:`` or ``files:`` entry resolves (links followed) outside the task's
        folder: such a file is never read (a stranger's task could send any readable file to
        a model as prompt text)."""
        return self.handler.escapes(self)

    def locate(self) -> Path | None:
        """The local file (or dataset directory) for this source if it is available."""
        return self.handler.locate(self)

    @property
    def recorded_sha256(self) -> str | None:
        """The sha256 of the user-supplied file of an unpinned source (trust on first use)."""
        if not self.handler.user_supplied(self):
            return None
        from seebench.data.user_files import recorded_sha256

        return recorded_sha256(self.task, self.name)


def task_sources(task: TaskSpec) -> list[Source]:
    """The data sources declared by ``task``."""
    sources = []
    from seebench.data.kinds import kind_of_declared

    for index, raw in enumerate(task.data.get("sources", [])):
        kind = kind_of_declared(raw)
        path = (task.path.parent / raw["path"]) if raw.get("path") else None
        files = (task.path.parent / raw["files"]) if raw.get("files") else None
        sources.append(
            Source(
                task=task.name,
                index=index,
                name=raw.get("name") or kind.default_name(raw, index),
                format=raw.get("format", kind.default_format),
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


def require_local(source: Source) -> Path:
    """The local path of ``source``; :class:`DataMissingError` naming how to get it if absent.

    A package file is verified against its sha256 (:mod:`seebench.data.external`); an hf
    source has no single file and is read with :func:`seebench.data.external.read_hf_source`.
    """
    return source.handler.require(source)


def fetch_source(source: Source, timeout: float = FETCH_TIMEOUT_S) -> Path:
    """Download ``source`` from its URL, verify its sha256 and store it in the cache (an hf
    source: load it with ``datasets`` and keep a copy in the cache). A file set is never
    fetched: its files are imported from a copy of the upstream data."""
    return source.handler.fetch(source, timeout)
