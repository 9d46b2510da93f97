"""The base of every data source kind: a file that a data reader turns into rows."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench.errors import DataMissingError, SeebenchError

if TYPE_CHECKING:
    from seebench.data.sources import Source
    from seebench.registry import Registry


class DataError(SeebenchError):
    """Rows could not be turned into samples (wrong column, value outside the labels...)."""


class SourceKind:
    """How one kind of source is named, confined, found, required, fetched, described and
    read. ``key`` is the key of a declared source (and the field of a resolved one) that
    selects the kind; the defaults describe a single local file read by a data reader."""

    name: str = ""
    key: str = ""
    #: The format of a source that declares none.
    default_format: str = ""

    def claims(self, source: Source) -> bool:
        """Whether ``source`` (resolved) is of this kind."""
        return bool(getattr(source, self.key))

    def claims_declared(self, raw: dict[str, Any]) -> bool:
        """Whether a declared source (the task file's mapping) is of this kind."""
        return bool(raw.get(self.key))

    def default_name(self, raw: dict[str, Any], index: int) -> str:
        """The source's name when the task gives none."""
        return f"source{index}"

    def file_name(self, source: Source) -> str:
        """The name of the file the source provides (a cache entry is filed under it)."""
        raise NotImplementedError

    def escapes(self, source: Source) -> bool:
        """Whether the source names a local file outside the task's folder (never read)."""
        return False

    def locate(self, source: Source) -> Path | None:
        """The local file (or dataset folder) of the source if it is available."""
        raise NotImplementedError

    def require(self, source: Source) -> Path:
        """The local path of the source; :class:`DataMissingError` saying how to get it."""
        local = self.locate(source)
        if local is None:
            raise DataMissingError(f"task {source.task!r}: {source.name!r} is not available")
        return local

    def fetch(self, source: Source, timeout: float) -> Path:
        """Make the source available locally (download, or say why it cannot be)."""
        return self.require(source)

    def describe(self, source: Source) -> str:
        """Where the source comes from, in a few words (``seebench data status``)."""
        return source.url or "no upstream url"

    def members(self, source: Source) -> list[Source]:
        """The sources whose files ``data import`` looks for (a file set: its members)."""
        return [source]

    def importable(self, source: Source) -> bool:
        """Whether ``data import`` can file this source's file in the cache by checksum."""
        return bool(source.sha256 and source.pinned)

    def user_supplied(self, source: Source) -> bool:
        """Whether the user provides the file (``seebench data add``, trust on first use)."""
        return False

    def rows(
        self, source: Source, registry: Registry
    ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """The source's rows, read by its format's data reader (or read back from the table
        cache, :mod:`seebench.data.table_cache`), and the checksums a result records for them
        (by source name)."""
        path = self.require(source)
        from seebench.data.table_cache import read_through

        reader = registry.data_reader(source.format).load()
        try:
            rows = read_through(
                self.reader_input(source, path), source.format, dict(source.options), reader
            )
        except Exception as exc:
            raise DataError(
                f"task {source.task!r}: cannot read {path.name} as {source.format}: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        return rows, {source.name: self.checksum(source, path)}

    def reader_input(self, source: Source, path: Path) -> Any:
        """What the data reader is given: the local file."""
        return path

    def checksum(self, source: Source, path: Path) -> str:
        """The checksum a result records for the source's data: the pinned sha256, else that of
        the file as read (so that a changed unpinned file shows in the results)."""
        pinned = source.recorded_sha256 or source.sha256
        if pinned:
            return pinned
        if not path.is_file():
            return ""
        from seebench.data.cache import sha256_file

        return sha256_file(path)
