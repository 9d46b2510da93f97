"""``hf:`` sources: a Hugging Face dataset, read with ``datasets`` and kept in the cache
(see :mod:`seebench.data.external`); it yields rows, not a file."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from seebench.data.kinds.url import UrlKind

if TYPE_CHECKING:
    from seebench.data.sources import Source
    from seebench.registry import Registry


class HFKind(UrlKind):
    """A Hugging Face dataset (``hf: {path, name, revision, split}``)."""

    name = "hf"
    key = "hf"
    default_format = "hf"

    def claims(self, source: Source) -> bool:
        return bool(source.hf)

    def claims_declared(self, raw: dict[str, Any]) -> bool:
        return bool(raw.get("hf"))

    def default_name(self, raw: dict[str, Any], index: int) -> str:
        return PurePosixPath(raw["hf"]["path"]).name or f"source{index}"

    def file_name(self, source: Source) -> str:
        spec = source.hf or {}
        return PurePosixPath(spec["path"]).name or spec["path"]

    def locate(self, source: Source) -> Path | None:
        from seebench.data.external import hf_location

        return hf_location(source)

    def user_supplied(self, source: Source) -> bool:
        return False

    def fetch(self, source: Source, timeout: float) -> Path:
        from seebench.data.external import read_hf_source

        read_hf_source(source)
        return self.locate(source)  # type: ignore[return-value]

    def describe(self, source: Source) -> str:
        spec = source.hf or {}
        extras = ", ".join(f"{k} {spec[k]}" for k in ("name", "split") if spec.get(k))
        revision = f"@{spec['revision'][:12]}" if spec.get("revision") else ""
        return f"hf:{spec['path']}{revision}" + (f" ({extras})" if extras else "")

    def rows(
        self, source: Source, registry: Registry
    ) -> tuple[list[dict[str, Any]], dict[str, str]]:
        """The dataset's rows and the checksums of the files they were read from."""
        from seebench.data.external import read_hf_source

        return read_hf_source(source)
