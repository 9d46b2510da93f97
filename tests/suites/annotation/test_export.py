from __future__ import annotations

import csv
import json

from seebench.suites.annotation.analysis import ModelRater, analyse_task
from seebench.suites.annotation.export import effort_rows, export_all, rq2, zone_rows


def _results(small_data):
    results = []
    for shift, name in enumerate(("toy_a", "toy_b", "toy_c")):
        good = {i: v for i, v in small_data.ratings["a"].items()}
        other = {i: min(4, v + shift) for i, v in small_data.ratings["b"].items()}
        models = [ModelRater("m1", good, dict.fromkeys(good, 0.9)), ModelRater("m2", other)]
        results.append(
            analyse_task(
                name, small_data, models, band_repetitions=20, repetitions=3, fractions=(0.5, 1.0)
            )
        )
    return results


def test_exports_every_format(tmp_path, small_data):
    results = _results(small_data)
    written = export_all(results, tmp_path)
    names = {p.name for p in written}
    assert {
        "agreement.md",
        "agreement.tex",
        "agreement.csv",
        "agreement.json",
        "agreement.html",
    } <= names
    assert (tmp_path / "figures" / "toy_a.interval.svg").exists()
    assert (tmp_path / "figures" / "toy_a.m1.replacement.png").exists()
    page = (tmp_path / "agreement.html").read_text()
    assert page.count("<svg") >= 3 * 4 and "sortTable" in page
    tex = (tmp_path / "agreement.tex").read_text()
    assert r"\toprule" in tex and "toy\\_a & interval" in tex
    with open(tmp_path / "agreement.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 * 3  # tasks x admissible levels
    document = json.loads((tmp_path / "agreement.json").read_text())
    assert document["rq2"]["tasks"] == ["toy_a", "toy_b", "toy_c"]
    assert "rho" in document["rq2"]
    markdown = (tmp_path / "agreement.md").read_text()
    assert "| toy_a | **interval** |" in markdown and "## Effort saved" in markdown
    assert "## All human raters at once" in markdown and "| toy_a | 3 | 6 | nominal " in markdown
    assert document["tasks"][0]["all_raters"]["raters"] == 3


def test_rows_and_rq2(small_data):
    results = _results(small_data)
    declared = [r for r in zone_rows(results) if r["declared"]]
    assert [r["task"] for r in declared] == ["toy_a", "toy_b", "toy_c"]
    assert all(r["HH_pairs"] == 3 and r["HM_pairs"] == 6 and r["MM_pairs"] == 1 for r in declared)
    assert {r["model"] for r in effort_rows(results)} == {"m1"}
    summary = rq2(results)
    assert set(summary["model_fit"]) == {"toy_a", "toy_b", "toy_c"}
