"""Exports of an agreement analysis over several tasks: Markdown, LaTeX, CSV, JSON, HTML.

Per task the heatmaps (every level) and the replacement curves (every model with confidences)
are written as PNG and SVG; the HTML page embeds the SVGs, so it stands alone.
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.leaderboard.html import _CSS, _JS, _table
from seebench.leaderboard.tables import latex_escape
from seebench.suites.annotation.agreement import zone_table
from seebench.suites.annotation.analysis import TaskAgreement
from seebench.suites.annotation.replacement import model_agreement_correlation
from seebench.suites.annotation.report import heatmap, replacement_figure, write_csv

MM_THRESHOLD = 0.5


def safe_name(text: str) -> str:
    """``text`` usable in a file name (a model label ``org/model/method`` -> ``org--model--method``)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text.replace("/", "--"))


def _num(value: Any, digits: int = 3) -> str:
    return (
        ""
        if value is None or (isinstance(value, float) and math.isnan(value))
        else f"{value:.{digits}f}"
    )


def zone_rows(results: Sequence[TaskAgreement]) -> list[dict[str, Any]]:
    """One row per task and level: mean and median of each zone (Table I, every level)."""
    rows: list[dict[str, Any]] = []
    for result in results:
        by_level: dict[str, dict[str, Any]] = {}
        for row in zone_table(result.matrices):
            entry = by_level.setdefault(
                row["level"],
                {
                    "task": result.task,
                    "level": row["level"],
                    "declared": row["level"] == result.level,
                },
            )
            zone = row["zone"]
            entry[f"{zone}_mean"], entry[f"{zone}_median"], entry[f"{zone}_pairs"] = (
                row["mean"],
                row["median"],
                row["pairs"],
            )
        rows.extend(by_level.values())
    return rows


def effort_rows(results: Sequence[TaskAgreement]) -> list[dict[str, Any]]:
    """Table II: per task and model, ratings per item, largest safe fraction and effort saved."""
    rows = []
    for result in results:
        for model, fraction in result.safe_fraction.items():
            effort = result.effort[model]
            rows.append(
                {
                    "task": result.task,
                    "model": model,
                    "ratings_per_item": result.ratings_per_item,
                    "safe_fraction": fraction,
                    "effort_saved_overall": effort["overall"],
                }
            )
    return rows


def rq2(results: Sequence[TaskAgreement]) -> dict[str, Any]:
    """Spearman of mean MM against mean HM at each task's declared level, and the MM > 0.5 rule."""
    points = []
    for row in zone_rows(results):
        if row["declared"] and row["MM_mean"] is not None and row["HM_mean"] is not None:
            points.append((row["task"], row["MM_mean"], row["HM_mean"]))
    summary: dict[str, Any] = {
        "tasks": [p[0] for p in points],
        "model_fit": {task: mm > MM_THRESHOLD for task, mm, _ in points},
        "threshold": MM_THRESHOLD,
    }
    if len(points) >= 3:
        correlation = model_agreement_correlation([p[1] for p in points], [p[2] for p in points])
        summary.update(rho=correlation["rho"], p=correlation["p"])
    return summary


def markdown(results: Sequence[TaskAgreement]) -> str:
    """Zones per task and level, effort saved, RQ2 and each task's problems."""
    lines = [
        "# Agreement",
        "",
        "Pairwise Krippendorff's alpha, mean / median over the pairs of each zone.",
        "",
        "| task | level | HH | HM | MM |",
        "|---|---|---|---|---|",
    ]
    for row in zone_rows(results):
        level = f"**{row['level']}**" if row["declared"] else row["level"]
        cells = [
            f"{_num(row[f'{z}_mean'])} / {_num(row[f'{z}_median'])}" if row[f"{z}_pairs"] else ""
            for z in ("HH", "HM", "MM")
        ]
        lines.append(f"| {row['task']} | {level} | " + " | ".join(cells) + " |")
    with_all = [r for r in results if r.all_raters]
    if with_all:
        lines += [
            "",
            "## All human raters at once (the paper's ALL rows)",
            "",
            "| task | raters | items rated twice or more | alpha at each level |",
            "|---|---|---|---|",
        ]
        for result in with_all:
            table = result.all_raters
            alphas = ", ".join(
                f"{level} {_num(value)}" for level, value in table.get("alpha", {}).items()
            )
            lines.append(f"| {result.task} | {table['raters']} | {table['items']} | {alphas} |")
    efforts = effort_rows(results)
    if efforts:
        lines += [
            "",
            "## Effort saved",
            "",
            "| task | model | ratings per item | safe fraction | effort saved |",
            "|---|---|---|---|---|",
        ]
        for row in efforts:
            lines.append(
                f"| {row['task']} | {row['model']} | {_num(row['ratings_per_item'], 1)} | {100 * row['safe_fraction']:.0f}% | {100 * row['effort_saved_overall']:.1f}% |"
            )
    summary = rq2(results)
    if "rho" in summary:
        lines += [
            "",
            f"RQ2: Spearman rho (mean MM vs mean HM, {len(summary['tasks'])} tasks) = {summary['rho']:.3f}, p = {summary['p']:.3f}.",
        ]
    problems = [p for r in results for p in r.problems]
    if problems:
        lines += ["", "## Problems", ""] + [f"- {p}" for p in problems]
    return "\n".join(lines) + "\n"


def latex(results: Sequence[TaskAgreement]) -> str:
    """Table I as a booktabs table, one row per task and level."""
    lines = [
        r"\begin{tabular}{llrrrrrr}",
        r"\toprule",
        r" & & \multicolumn{2}{c}{HH} & \multicolumn{2}{c}{HM} & \multicolumn{2}{c}{MM} \\",
        r"Task & Level & Mean & Median & Mean & Median & Mean & Median \\",
        r"\midrule",
    ]
    for row in zone_rows(results):
        cells = [_num(row[f"{z}_{s}"], 2) for z in ("HH", "HM", "MM") for s in ("mean", "median")]
        lines.append(
            f"{latex_escape(row['task'])} & {row['level']} & " + " & ".join(cells) + r" \\"
        )
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines) + "\n"


def _html_page(results: Sequence[TaskAgreement], figures: dict[str, list[Path]]) -> str:
    zones = zone_rows(results)
    headers = [("task", "text"), ("level", "text")] + [
        (f"{z} {s}", "number") for z in ("HH", "HM", "MM") for s in ("mean", "median")
    ]
    rows = [
        [r["task"], r["level"]]
        + [
            float("nan") if r[f"{z}_{s}"] is None else float(r[f"{z}_{s}"])
            for z in ("HH", "HM", "MM")
            for s in ("mean", "median")
        ]
        for r in zones
    ]
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>Agreement</title>",
        f"<style>{_CSS}</style></head><body><h1>Agreement</h1>",
        "<p>Pairwise Krippendorff's alpha, mean and median over the pairs of each zone.</p>",
        _table("zones", headers, rows),
    ]
    efforts = effort_rows(results)
    if efforts:
        parts.append("<h2>Effort saved</h2>")
        parts.append(
            _table(
                "effort",
                [
                    ("task", "text"),
                    ("model", "text"),
                    ("safe fraction", "number"),
                    ("effort saved", "number"),
                ],
                [
                    [
                        e["task"],
                        e["model"],
                        float(e["safe_fraction"]),
                        float(e["effort_saved_overall"]),
                    ]
                    for e in efforts
                ],
            )
        )
    for result in results:
        parts.append(f"<h2>{html.escape(result.task)}</h2>")
        for path in figures.get(result.task, []):
            if path.suffix == ".svg":
                parts.append(f"<figure>{safe_files.read_text(path).split('?>', 1)[-1]}</figure>")
        for problem in result.problems:
            parts.append(f"<p class='note'>{html.escape(problem)}</p>")
    parts.append(f"<script>{_JS}</script></body></html>")
    return "\n".join(parts)


def export_all(results: Sequence[TaskAgreement], out_dir: Path) -> list[Path]:
    """Write ``agreement.{md,tex,csv,json,html}``, per-task pair CSVs and the figures."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    figures: dict[str, list[Path]] = {}
    for result in results:
        paths = []
        for level, matrix in result.matrices.items():
            paths += heatmap(
                matrix,
                out_dir / "figures" / f"{result.task}.{level}",
                title=f"{result.task} ({level})",
            )
        if result.band is not None:
            for model, curves in result.curves.items():
                stem = out_dir / "figures" / f"{result.task}.{safe_name(model)}.replacement"
                paths += replacement_figure(
                    curves, result.band, stem, title=f"{result.task}: {model}"
                )
        figures[result.task] = paths
        written += paths
        written.append(
            write_csv(out_dir / "pairs" / f"{result.task}.csv", result.to_json()["pairs"])
        )
    texts = {
        "agreement.md": markdown(results),
        "agreement.tex": latex(results),
        "agreement.json": json.dumps(
            {"tasks": [r.to_json() for r in results], "rq2": rq2(results)}, indent=2, default=str
        ),
        "agreement.html": _html_page(results, figures),
    }
    for name, text in texts.items():
        path = out_dir / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    written.append(write_csv(out_dir / "agreement.csv", zone_rows(results)))
    return written
