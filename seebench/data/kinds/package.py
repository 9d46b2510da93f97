"""``package:`` sources: a file inside an installed Python package, verified by its sha256
(see :mod:`seebench.data.external`)."""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from seebench.data.kinds.base import SourceKind

if TYPE_CHECKING:
    from seebench.data.sources import Source


class PackageKind(SourceKind):
    """A file that an installed distribution ships; nothing to download or import."""

    name = "package"
    key = "package"

    def default_name(self, raw: dict[str, Any], index: int) -> str:
        return PurePosixPath(raw["package"]["path"]).name.split(".")[0]

    def file_name(self, source: Source) -> str:
        return PurePosixPath(source.package["path"]).name  # type: ignore[index]

    def locate(self, source: Source) -> Path | None:
        from seebench.data.external import package_location

        return package_location(source)

    def require(self, source: Source) -> Path:
        from seebench.data.external import require_package_file

        return require_package_file(source)

    def describe(self, source: Source) -> str:
        from seebench.data.external import distribution_of

        spec = source.package or {}
        dist = distribution_of(spec["name"])
        return f"package {spec['name']}: {spec['path']}" + (f" ({dist})" if dist else "")

    def importable(self, source: Source) -> bool:
        return False  # the package ships it; the cache never holds it
