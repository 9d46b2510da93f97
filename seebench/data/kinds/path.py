"""``path:`` sources: a file shipped beside the task file, confined to its folder."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench import safe_files
from seebench.data.kinds.base import SourceKind
from seebench.data.kinds.url import fetch_file
from seebench.errors import DataMissingError

if TYPE_CHECKING:
    from seebench.data.sources import Source


def confined_escape(local: Path | None, source: Source) -> bool:
    """Whether ``local`` resolves (links followed) outside the task's folder: such a file is
    never read (a stranger's task could send any readable file to a model as prompt text)."""
    if local is None or source.base_dir is None:
        return False
    return not safe_files.inside(local, source.base_dir)


def escape_error(source: Source, what: str) -> DataMissingError:
    return DataMissingError(
        f"task {source.task!r}: data source {source.name!r}: {what} resolves outside the "
        f"task's folder {source.base_dir}; seebench reads only files inside it"
    )


class PathKind(SourceKind):
    """A file beside the task (``path:``); it may also name a ``url`` to fetch it from."""

    name = "path"
    key = "path"

    def default_name(self, raw: dict[str, Any], index: int) -> str:
        return Path(raw["path"]).stem

    def file_name(self, source: Source) -> str:
        return source.path.name  # type: ignore[union-attr]

    def escapes(self, source: Source) -> bool:
        return confined_escape(source.path, source)

    def locate(self, source: Source) -> Path | None:
        if self.escapes(source):
            return None
        return source.path if source.path.is_file() else None  # type: ignore[union-attr]

    def require(self, source: Source) -> Path:
        if self.escapes(source):
            raise escape_error(source, "path")
        local = self.locate(source)
        if local is None:
            raise DataMissingError(
                f"task {source.task!r}: shipped data file {source.path} is missing"
            )
        return local

    def fetch(self, source: Source, timeout: float) -> Path:
        return fetch_file(self, source, timeout)
