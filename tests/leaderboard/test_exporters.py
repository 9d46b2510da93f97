"""Every export format writes what a reader of the leaderboard relies on."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from seebench.leaderboard import EXPORTERS
from seebench.leaderboard.figures import export_figures
from seebench.leaderboard.html import export_html
from seebench.leaderboard.tables import (
    export_csv,
    export_json,
    export_latex,
    export_markdown,
    export_per_task,
    latex_escape,
)
from seebench.stats import ComparisonReport


def test_markdown(small_report: ComparisonReport, tmp_path: Path) -> None:
    [path] = export_markdown(small_report, tmp_path)
    text = path.read_text()
    assert path.name == "leaderboard.md" and text.startswith("# SELU test")
    assert "| 1 | 1 | GPT-2 xl | 0.755 | 0.131 | [0.649, 0.861] |" in text  # alpha / k intervals
    assert all(model in text for model in small_report.models)
    assert "## Breakdown by task family and task type" in text and "developer communication" in text


def test_latex_booktabs(small_report: ComparisonReport, tmp_path: Path) -> None:
    [path] = export_latex(small_report, tmp_path)
    text = path.read_text()
    for command in (
        r"\toprule",
        r"\midrule",
        r"\bottomrule",
        r"\begin{tabular}",
        r"\cmidrule(lr){2-3}",
    ):
        assert command in text
    assert "TF-IDF+XGBoost & 0.645" in text
    assert text.count(r"\begin{table}") == 2


def test_latex_escape() -> None:
    assert latex_escape("a_b & 50% #1 {x} ~^\\") == (
        r"a\_b \& 50\% \#1 \{x\} \textasciitilde{}\textasciicircum{}\textbackslash{}"
    )


def test_csv_files(small_report: ComparisonReport, tmp_path: Path) -> None:
    paths = export_csv(small_report, tmp_path)
    assert [p.name for p in paths] == ["leaderboard.csv", "pairs.csv", "breakdown.csv"]
    with paths[0].open() as handle:
        rows = list(csv.DictReader(handle))
    assert [r["model"] for r in rows] == list(small_report.models)
    assert float(rows[0]["center"]) == pytest.approx(0.75465)
    with paths[1].open() as handle:
        pairs = list(csv.DictReader(handle))
    assert len(pairs) == 378 and set(pairs[0]) >= {
        "a",
        "b",
        "p_a_better",
        "p_equal",
        "p_b_better",
        "decision",
    }


def test_json_round_trip(small_report: ComparisonReport, tmp_path: Path) -> None:
    [path] = export_json(small_report, tmp_path)
    data = json.loads(path.read_text())
    assert data["schema_version"] == 1
    assert [r["model"] for r in data["ranking"]] == list(small_report.models)
    assert data["scores"]["GPT-2 xl"]["bug_issue"] == 0.88
    assert sum(len(t) for t in data["tiers"]) == 28


def test_per_task_table(small_report: ComparisonReport, tmp_path: Path) -> None:
    csv_path, md_path = export_per_task(small_report, tmp_path)
    with csv_path.open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 20
    story = next(r for r in rows if r["task"] == "story_points")
    assert story["type"] == "regression" and float(story["CodeLlama 7B"]) == 0.464
    assert "**0.979**" in md_path.read_text()  # best on security_requirement: CodeT5+ 770M


def test_figures_png_and_svg(tiny_report: ComparisonReport, tmp_path: Path) -> None:
    paths = export_figures(tiny_report, tmp_path)
    assert sorted(p.name for p in paths) == sorted(
        f"{n}.{ext}"
        for n in ("posterior_better", "posterior_equal", "decisions")
        for ext in ("png", "svg")
    )
    for path in paths:
        data = path.read_bytes()
        if path.suffix == ".png":
            assert data.startswith(b"\x89PNG")
        else:
            assert b"<svg" in data and b"GPT-2 xl" in data


def test_html_is_self_contained(tiny_report: ComparisonReport, tmp_path: Path) -> None:
    [path] = export_html(tiny_report, tmp_path)
    text = path.read_text()
    assert text.startswith("<!DOCTYPE html>")
    assert text.count("<svg") >= 3 and 'class="sortable"' in text
    for table_id in ("ranking", "breakdown", "pairs", "per-task"):
        assert f'id="{table_id}"' in text
    assert 'src="http' not in text and 'href="http' not in text  # nothing to fetch


def test_every_exporter_is_importable() -> None:
    from seebench.registry import load_object

    for name, (path, description) in EXPORTERS.items():
        assert callable(load_object(path)), name
        assert description
