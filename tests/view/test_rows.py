"""A unit's rows: the unscored count (apart from the model's failures) and the reliability
diagram of a log-likelihood result."""

from __future__ import annotations

import json
import re

from seebench.view.catalog import Catalog
from seebench.view.rows import reliability, unscored
from seebench.view.site import Site
from seebench.view.synthetic import classification_records, write_unit

BINS = [
    {"bin": [0.3, 0.4], "count": 4, "confidence": 0.35, "accuracy": 0.25},
    {"bin": [0.6, 0.7], "count": 10, "confidence": 0.65, "accuracy": 0.7},
    {"bin": [0.9, 1.0], "count": 6, "confidence": 0.95, "accuracy": 1.0},
]


def _catalog(tmp_path, info=None, extra=None) -> tuple[Catalog, object]:
    path = write_unit(tmp_path, "m", "loglik", "issues", classification_records(20, 0.7), info=info)
    if extra:
        path.write_text(json.dumps({**json.loads(path.read_text()), **extra}))
    catalog = Catalog([tmp_path])
    catalog.refresh()
    [unit] = catalog.list()
    assert unit.status == "ok", unit.problem
    return catalog, unit


def test_a_loglik_unit_shows_its_reliability_diagram_and_ece(tmp_path) -> None:
    catalog, unit = _catalog(tmp_path, {"loglik": {"ece": 0.0625, "reliability": BINS}})
    diagram = reliability(unit)
    assert [b["count"] for b in diagram["bars"]] == [4, 10, 6]
    page = Site(catalog).unit_page(unit.uid)
    assert len(re.findall(r'<rect class="bin"', page)) == 3
    assert 'id="ece">0.0625<' in page
    rows = re.findall(r"<tr><td>\[([0-9.]+), [0-9.]+\)</td><td class=\"num\">(\d+)<", page)
    assert rows == [("0.3", "4"), ("0.6", "10"), ("0.9", "6")]


def test_bins_that_are_not_probabilities_are_left_out(tmp_path) -> None:
    bad = [*BINS, {"bin": [0.1, 0.2], "count": 1, "confidence": 7, "accuracy": 0.5}, "x"]
    _, unit = _catalog(tmp_path, {"loglik": {"reliability": bad}})
    assert len(reliability(unit)["bars"]) == 3
    _, plain = _catalog(tmp_path / "plain")
    assert reliability(plain) is None


def test_unscored_samples_are_counted_apart_with_their_reasons(tmp_path) -> None:
    extra = {"unscored": {"count": 3, "reasons": {"infra_error": 2, "sandbox_unavailable": 1}}}
    catalog, unit = _catalog(tmp_path, extra=extra)
    assert unscored(unit) == {
        "count": 3,
        "of": 20,
        "reasons": "infra_error: 2, sandbox_unavailable: 1",
    }
    site = Site(catalog)
    runs = site.runs_page()
    cell = re.findall(r'<td class="num unscored">(.*?)</td>', runs, re.S)
    assert len(cell) == 1 and ">3</span>" in cell[0] and "infra_error: 2" in cell[0]
    page = site.unit_page(unit.uid)
    assert re.search(r'id="unscored">3 of 20 samples unscored', page)
    _, clean = _catalog(tmp_path / "clean")
    assert unscored(clean) is None
