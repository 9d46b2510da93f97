"""``files:`` sources: a set of files named in a checksum list shipped beside the task; the
members live in the data cache (see :mod:`seebench.data.file_sets`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench.data.kinds.base import SourceKind
from seebench.data.kinds.path import confined_escape, escape_error

if TYPE_CHECKING:
    from seebench.data.sources import Source


class FileSetKind(SourceKind):
    """A checksum list (``files:``) and the cached files it names; the reader gets them all."""

    name = "files"
    key = "files"

    def default_name(self, raw: dict[str, Any], index: int) -> str:
        return Path(raw["files"]).stem

    def file_name(self, source: Source) -> str:
        return source.files.name  # type: ignore[union-attr]

    def escapes(self, source: Source) -> bool:
        return confined_escape(source.files, source)

    def locate(self, source: Source) -> Path | None:
        from seebench.data.file_sets import missing_members

        if self.escapes(source) or not source.files.is_file() or missing_members(source):  # type: ignore[union-attr]
            return None
        return source.files

    def require(self, source: Source) -> Path:
        from seebench.data.file_sets import open_file_set

        if self.escapes(source):
            raise escape_error(source, "files")
        return open_file_set(source).list_path  # raises, naming how to import the files

    def fetch(self, source: Source, timeout: float) -> Path:
        """Never downloaded: the files are imported from a copy of the upstream data."""
        from seebench.data.file_sets import open_file_set

        return open_file_set(source).list_path

    def describe(self, source: Source) -> str:
        where = source.url or "no upstream url"
        return f"file set listed in {source.files.name} ({where})"  # type: ignore[union-attr]

    def members(self, source: Source) -> list[Source]:
        from seebench.data.file_sets import member_sources

        return member_sources(source) if source.files.is_file() else [source]  # type: ignore[union-attr]

    def reader_input(self, source: Source, path: Path) -> Any:
        from seebench.data.file_sets import open_file_set

        return open_file_set(source)

    def checksum(self, source: Source, path: Path) -> str:
        from seebench.data.file_sets import file_list_sha256

        return file_list_sha256(path)
