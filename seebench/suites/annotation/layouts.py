"""Layout names (as written in task files) mapped to their readers."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from seebench.data.dataset import DataError
from seebench.suites.annotation import readers
from seebench.suites.annotation.ratings import RatingData
from seebench.suites.annotation.scale import Scale

LAYOUTS: dict[str, Callable[..., RatingData]] = {
    "long": readers.read_long,
    "wide_form": readers.read_wide_form,
    "sparse_wide": readers.read_sparse_wide,
    "rater_slots": readers.read_rater_slots,
    "joined": readers.read_joined,
}


def read_ratings(
    layout: str, source: Path | Mapping[str, Any], scale: Scale, level: str, **options: Any
) -> RatingData:
    """Read ``source`` (a file, or for ``joined`` {group: {rater: file}}) laid out as ``layout``."""
    reader = LAYOUTS.get(layout)
    if reader is None:
        raise DataError(f"layout {layout!r} is not one of {', '.join(LAYOUTS)}")
    try:
        return reader(source, scale, level, **options)
    except TypeError as exc:
        raise DataError(f"layout {layout!r}: {exc}") from None
