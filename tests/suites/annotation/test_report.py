from __future__ import annotations

import csv

from seebench.suites.annotation.agreement import agreement_by_level
from seebench.suites.annotation.ratings import random_rater
from seebench.suites.annotation.replacement import human_band, replacement_curves
from seebench.suites.annotation.report import (
    matrix_markdown,
    matrix_rows,
    replacement_figure,
    write_report,
    zones_markdown,
)


def test_report_writes_tables_and_heatmaps(tmp_path, small_data):
    data = random_rater(small_data.with_rater("m1", {"i1": 1, "i2": 2, "i3": 3}), seed=1)
    matrices = agreement_by_level(data)
    written = write_report("toy", matrices, tmp_path)
    assert written["markdown"].read_text().startswith("# Agreement: toy")
    for level in ("nominal", "ordinal", "interval"):
        assert written[f"heatmap_{level}"].stat().st_size > 1000
        assert (tmp_path / f"toy.{level}.svg").read_text().lstrip().startswith("<?xml")
    with open(written["pairs_csv"]) as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 3 * 10  # three levels x C(5, 2) pairs
    first = next(
        r for r in rows if r["level"] == "interval" and r["rater_a"] == "a" and r["rater_b"] == "c"
    )
    assert first["n"] == "5"
    assert float(first["alpha"]) == matrices["interval"].alpha[0, 2]
    with open(written["zones_csv"]) as handle:
        zones = list(csv.DictReader(handle))
    assert {(z["level"], z["zone"]) for z in zones} >= {("interval", "HH"), ("nominal", "HM")}


def test_markdown_tables_show_alpha_with_overlap_and_zones(small_data):
    matrices = agreement_by_level(small_data.with_rater("m1", {"i1": 1}))
    text = matrix_markdown(matrices["interval"])
    assert text.splitlines()[0] == "| interval | a | b | c | m1 |"
    assert f"{matrices['interval'].alpha[0, 1]:.3f} (6)" in text
    assert "n/a (1)" in text  # one shared item: alpha undefined
    zones = zones_markdown({"toy": matrices})
    assert zones.count("| toy |") == 3
    assert matrix_rows(matrices["nominal"])[0]["kind_a"] == "human"


def test_replacement_figure(tmp_path, small_data):
    model = dict(small_data.ratings["b"])
    confidence = dict.fromkeys(model, 0.9)
    curves = replacement_curves(
        small_data, model, confidence, "interval", fractions=(0.5, 1.0), repetitions=5
    )
    band = human_band(small_data, "interval", repetitions=20)
    png, svg = replacement_figure(curves, band, tmp_path / "curves", title="toy")
    assert png.stat().st_size > 1000 and svg.exists()
