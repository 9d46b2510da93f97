"""Data source kinds: one class per kind of declared source, one module each.

A task's ``data.sources`` entry is a file shipped beside the task (``path``), a set of files
named in a checksum list (``files``), a file inside an installed package (``package``), a
Hugging Face dataset (``hf``) or a downloadable file (``url`` + ``sha256``). Each kind knows
its own default name, file name, confinement, location, requirement, download, description
and how its rows are read (:class:`~seebench.data.kinds.base.SourceKind`); the rest of
:mod:`seebench.data` asks the source's kind instead of testing which fields are set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from seebench.data.kinds.base import SourceKind
from seebench.data.kinds.files import FileSetKind
from seebench.data.kinds.hf import HFKind
from seebench.data.kinds.package import PackageKind
from seebench.data.kinds.path import PathKind
from seebench.data.kinds.url import UrlKind

if TYPE_CHECKING:
    from seebench.data.sources import Source

#: In the order they are tried: the first kind whose key a source declares is its kind; a
#: source that declares none of them is a ``url`` source.
KINDS: tuple[SourceKind, ...] = (HFKind(), PackageKind(), FileSetKind(), PathKind(), UrlKind())


def kind_of(source: Source) -> SourceKind:
    """The kind of a resolved source."""
    return next(kind for kind in KINDS if kind.claims(source))


def kind_of_declared(raw: dict[str, Any]) -> SourceKind:
    """The kind of a declared ``data.sources`` entry (a mapping from the task file)."""
    return next(kind for kind in KINDS if kind.claims_declared(raw))


__all__ = ["KINDS", "SourceKind", "kind_of", "kind_of_declared"]
