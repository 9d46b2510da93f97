"""Layout names (as written in task files) mapped to their readers, for rows or for files."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from seebench.data.dataset import DataError
from seebench.suites.annotation import readers
from seebench.suites.annotation.ratings import RatingData
from seebench.suites.annotation.scale import Scale

LAYOUTS: dict[str, Callable[..., RatingData]] = {
    "long": readers.long_layout,
    "wide_form": readers.wide_form_layout,
    "sparse_wide": readers.sparse_wide_layout,
    "rater_slots": readers.rater_slots_layout,
    "joined": readers.joined_layout,
}
#: layouts whose ratings come from several sources
MULTI_SOURCE = {"joined"}


def check_layout_options(layout: str, options: Mapping[str, Any]) -> Callable[..., RatingData]:
    """The layout's function, after checking that ``options`` fit its signature."""
    function = LAYOUTS.get(layout)
    if function is None:
        raise DataError(f"layout {layout!r} is not one of {', '.join(LAYOUTS)}")
    fixed = {"sources": None} if layout in MULTI_SOURCE else {"rows": None, "name": ""}
    parameters = inspect.signature(function).parameters
    given = {"scale", "level", *fixed}
    known = [name for name in parameters if name not in given]
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    unknown = [name for name in options if name not in parameters and not takes_any]
    if unknown:
        raise DataError(
            f"layout {layout!r}: unknown option {unknown[0]!r} (options: {', '.join(known)})"
        )
    missing = [
        name
        for name in known
        if name not in options
        and parameters[name].default is inspect.Parameter.empty
        and parameters[name].kind
        not in (inspect.Parameter.VAR_KEYWORD, inspect.Parameter.VAR_POSITIONAL)
    ]
    if missing:
        raise DataError(f"layout {layout!r}: missing option {missing[0]!r}")
    return function


def ratings_from_sources(
    layout: str,
    sources: Mapping[str, Sequence[Mapping[str, Any]]],
    scale: Scale,
    level: str,
    *,
    source: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> RatingData:
    """Ratings from rows by source name: a single-source layout reads ``source`` (or the only
    source), ``joined`` reads the sources its ``groups`` option names."""
    options = dict(options or {})
    function = check_layout_options(layout, options)
    if layout in MULTI_SOURCE:
        return function(sources, scale, level, **options)
    if source is None:
        if len(sources) != 1:
            raise DataError(
                f"layout {layout!r}: name the source holding the ratings (sources: {', '.join(sources)})"
            )
        source = next(iter(sources))
    if source not in sources:
        raise DataError(
            f"layout {layout!r}: no source named {source!r} (sources: {', '.join(sources) or 'none'})"
        )
    return function(sources[source], scale, level, name=source, **options)


def read_ratings(
    layout: str, source: Path | Mapping[str, Any], scale: Scale, level: str, **options: Any
) -> RatingData:
    """Read ``source`` (a file, or for ``joined`` {group: {rater: file}}) laid out as ``layout``."""
    check_layout_options(layout, {**options, **({"groups": {}} if layout in MULTI_SOURCE else {})})
    if layout in MULTI_SOURCE:
        return readers.read_joined(source, scale, level, **options)  # type: ignore[arg-type]
    path = Path(source)  # type: ignore[arg-type]
    rows = readers.json_rows(path) if layout == "rater_slots" else readers.table_rows(path)
    return LAYOUTS[layout](rows, scale, level, name=path.name, **options)
