"""The sample table's sort links keep the list's filters, and the export's rows carry what
its in-page search, filters and sorting need."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from seebench.view.index import DAMAGED, WRONG, SampleFilter
from seebench.view.site import Site
from seebench.view.table import query_string, sort_links, table_rows
from tests.view.conftest import unit_of


def _params(href: str) -> dict[str, list[str]]:
    return parse_qs(urlparse(href).query)


def test_sort_links_keep_the_filters_and_reverse_the_current_order() -> None:
    wanted = SampleFilter(query="crash", wrong=True, sort="score")
    links = {link["key"]: link for link in sort_links(wanted, ["judge"])}
    assert list(links) == ["line", "id", "score", "judge"]
    assert _params(links["score"]["href"]) == {
        "q": ["crash"],
        "wrong": ["1"],
        "sort": ["score"],
        "desc": ["1"],
    }
    assert links["score"]["arrow"] == "▲" and links["id"]["arrow"] == ""
    assert _params(links["id"]["href"])["sort"] == ["id"] and "desc" not in _params(
        links["id"]["href"]
    )
    assert query_string(SampleFilter()) == ""
    assert _params(query_string(SampleFilter(min_value=0.5)))["min"] == ["0.5"]


def test_rows_of_the_exported_table(catalog) -> None:
    site = Site(catalog, mode="export")
    unit = unit_of(catalog, "beta", "issue_type")
    index, _ = site.index_of(unit)
    rows = list(table_rows(unit, index, 300, site.input_of))
    assert [r[0] for r in rows] == list(range(60))
    line, ident, repeat, score, flags, gold, pred, text_in, text_pred, text_gold, search, _ = rows[
        5
    ]
    assert ident == "item-000005" and repeat is None
    assert bool(flags & WRONG) == (score == 0.0) and not flags & DAMAGED
    assert index.labels[gold] == text_gold and index.labels[pred] == text_pred
    assert text_in.startswith("Issue 5:") and "issue 5:" in search and len(search) <= 300
