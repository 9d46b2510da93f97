"""The sample table: its sortable columns and the query strings that keep a list's search,
filters and order, and the rows of the export's in-page table of every sample
(``unit/<uid>/table.html``, searched, filtered and sorted by the page's script)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from seebench.view import render
from seebench.view.catalog import Unit
from seebench.view.index import SampleFilter, SampleIndex, read_records
from seebench.view.safety import Refused

#: A site's ``input_of``: a record's input (stored or looked up) and a note.
InputOf = Callable[[Unit, dict[str, Any]], tuple[Any, str]]
#: Lines larger than this are listed without their text.
MAX_LINE_BYTES = 4 * 1024 * 1024


#: The sample table's sortable columns: (heading, sort key).
SORT_COLUMNS = (("#", "line"), ("id", "id"), ("score", "score"))


def query_string(wanted: SampleFilter) -> str:
    """The query string of a page listing the samples ``wanted`` selects."""
    from urllib.parse import urlencode

    pairs = {
        "q": wanted.query,
        "wrong": "1" if wanted.wrong else "",
        "invalid": "1" if wanted.invalid else "",
        "damaged": "1" if wanted.damaged else "",
        "label": wanted.label,
        "scorer": wanted.scorer,
        "min": "" if wanted.min_value is None else f"{wanted.min_value:g}",
        "max": "" if wanted.max_value is None else f"{wanted.max_value:g}",
        "sort": wanted.sort,
        "desc": "1" if wanted.desc else "",
    }
    kept = {k: v for k, v in pairs.items() if v}
    return ("?" + urlencode(kept)) if kept else ""


def sort_links(wanted: SampleFilter, scorers: list[str]) -> list[dict[str, str]]:
    """A link per sortable column (and scorer): sorted by it, or reversed when it already
    is; the arrow says the current order."""
    from dataclasses import replace

    out = []
    for heading, key in (*SORT_COLUMNS, *((name, name) for name in scorers)):
        current = wanted.sort == key or (key == "line" and not wanted.sort)
        again = replace(wanted, sort=key, desc=current and not wanted.desc)
        arrow = ("▼" if wanted.desc else "▲") if current else ""
        out.append(
            {
                "heading": heading,
                "key": key,
                "href": f"page-1.html{query_string(again)}",
                "arrow": arrow,
            }
        )
    return out


def table_rows(
    unit: Unit, index: SampleIndex, chars: int, input_of: InputOf
) -> Iterator[list[Any]]:
    """One list per sample: line, id, repeat, score, flags, gold and predicted label
    codes, input / prediction / gold excerpts, the search text, each scorer's value."""
    samples = unit.samples_path
    assert samples is not None
    names = sorted(index.scorers)
    with_repeats = bool(index.repeats.any())
    for start in range(0, index.n, 2000):
        lines = list(range(start, min(index.n, start + 2000)))
        try:
            records = read_records(index, samples, unit.root, lines, MAX_LINE_BYTES)
        except Refused:
            records = [(line, None, 0) for line in lines]
        for line, record, _ in records:
            record = record or {}
            value, _ = input_of(unit, record) if record else (None, "")
            text = render.readable(record, chars)
            if "input" not in record and value is not None:
                text = render.readable(value, chars) + "\n" + text
            yield [
                line,
                bytes(index.ids[line]).decode("utf-8", "replace"),
                int(index.repeats[line]) if with_repeats else None,
                _num(index.score[line]),
                int(index.flags[line]),
                int(index.gold[line]),
                int(index.pred[line]),
                "" if value is None else short(value, 160),
                short(record.get("prediction"), 80) if record else "",
                short(record.get("gold"), 80) if record else "",
                text[:chars].lower(),
                [_num(index.scorers[name][line]) for name in names],
            ]


def short(value: Any, limit: int) -> str:
    """A value as text (JSON unless a string), cut at ``limit`` characters."""
    import json

    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + " …"


def _num(value: Any) -> float | None:
    value = float(value)
    return None if value != value else value
