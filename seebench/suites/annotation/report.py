"""Tables and figures of an agreement analysis: Markdown and CSV tables, heatmaps, curves.

matplotlib (the ``stats`` or ``dev`` extra) is imported only by the figure functions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from seebench.csv_files import write_records
from seebench.suites.annotation.agreement import AgreementMatrix, zone_table
from seebench.suites.annotation.replacement import HumanBand, ReplacementCurve


def _fmt(value: float | None, digits: int = 3) -> str:
    return (
        ""
        if value is None or (isinstance(value, float) and math.isnan(value))
        else f"{value:.{digits}f}"
    )


def matrix_rows(matrix: AgreementMatrix) -> list[dict[str, Any]]:
    """One row per pair of raters: names, kinds, shared items and alpha (None if undefined)."""
    rows = []
    for i, j in itertools.combinations(range(len(matrix.raters)), 2):
        alpha = matrix.alpha[i, j]
        rows.append(
            {
                "level": matrix.level,
                "rater_a": matrix.raters[i],
                "kind_a": matrix.kinds[i],
                "rater_b": matrix.raters[j],
                "kind_b": matrix.kinds[j],
                "n": int(matrix.overlap[i, j]),
                "alpha": None if math.isnan(alpha) else float(alpha),
            }
        )
    return rows


def matrix_markdown(matrix: AgreementMatrix) -> str:
    """The pairwise matrix as a Markdown table; each cell ``alpha (n shared items)``."""
    names = list(matrix.raters)
    lines = [f"| {matrix.level} | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for i, name in enumerate(names):
        cells = []
        for j in range(len(names)):
            if i == j:
                cells.append("")
            elif matrix.overlap[i, j] == 0:
                cells.append("-")
            else:
                cells.append(
                    f"{_fmt(float(matrix.alpha[i, j])) or 'n/a'} ({int(matrix.overlap[i, j])})"
                )
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def zones_markdown(by_task: Mapping[str, Mapping[str, AgreementMatrix]]) -> str:
    """Table I layout: per task and level, mean and median alpha of the HH, HM and MM zones."""
    header = "| task | level | HH mean | HH median | HM mean | HM median | MM mean | MM median |"
    lines = [header, "|---" * 8 + "|"]
    for task, matrices in by_task.items():
        rows = {(r["level"], r["zone"]): r for r in zone_table(dict(matrices))}
        for level in matrices:
            cells = []
            for zone in ("HH", "HM", "MM"):
                row = rows[(level, zone)]
                cells += [_fmt(row["mean"]), _fmt(row["median"])]
            lines.append(f"| {task} | {level} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_csv(path: Path, rows: Sequence[Mapping[str, Any]]) -> Path:
    """Write dict rows (all with the same keys) as CSV (no cell a spreadsheet runs as a
    formula: :mod:`seebench.csv_files`)."""
    return write_records(path, rows)


def heatmap(matrix: AgreementMatrix, stem: Path, *, title: str = "") -> list[Path]:
    """Lower-triangle heatmap of pairwise alpha (like the paper's Fig. 2-6) as PNG and SVG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    size = len(matrix.raters)
    shown = np.where(np.tril(np.ones((size, size), dtype=bool), k=-1), matrix.alpha, np.nan)
    figure, axes = plt.subplots(figsize=(1.0 + 0.55 * size, 0.6 + 0.5 * size))
    image = axes.imshow(
        np.ma.masked_invalid(shown),
        cmap="viridis",
        vmin=min(0.0, np.nanmin(shown) if np.isfinite(shown).any() else 0.0),
        vmax=1.0,
    )
    for i, j in zip(*np.nonzero(np.isfinite(shown)), strict=True):
        axes.text(
            j,
            i,
            f"{shown[i, j]:.2f}",
            ha="center",
            va="center",
            fontsize=7,
            color="white" if shown[i, j] < 0.6 else "black",
        )
    axes.set_xticks(range(size), matrix.raters, rotation=90, fontsize=8)
    axes.set_yticks(range(size), matrix.raters, fontsize=8)
    axes.set_title(title or f"Krippendorff's alpha ({matrix.level})", fontsize=9)
    figure.colorbar(image, ax=axes, fraction=0.046)
    figure.tight_layout()
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.parent / f"{stem.name}.png", stem.parent / f"{stem.name}.svg"]
    for path in paths:
        figure.savefig(path, dpi=150)
    plt.close(figure)
    return paths


def replacement_figure(
    curves: Mapping[str, ReplacementCurve], band: HumanBand, stem: Path, *, title: str = ""
) -> list[Path]:
    """Agreement against the fraction of items with one rating from the model (Fig. 8-11)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(5, 3.4))
    axes.axhspan(band.low, band.high, color="0.85", label="human-human 95% band")
    axes.axhline(band.estimate, color="0.3", linestyle=":", label="human-human")
    for (strategy, curve), colour in zip(curves.items(), ("tab:red", "tab:blue"), strict=False):
        xs = [100 * f for f in curve.fractions]
        axes.plot(xs, curve.mean, marker="o", color=colour, label=f"{strategy} selection")
        axes.fill_between(xs, curve.low, curve.high, color=colour, alpha=0.2)
    axes.set_xlabel("% of items with one rating from the model")
    axes.set_ylabel("mean pairwise alpha")
    axes.set_title(title, fontsize=9)
    axes.legend(fontsize=7)
    figure.tight_layout()
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    paths = [stem.parent / f"{stem.name}.png", stem.parent / f"{stem.name}.svg"]
    for path in paths:
        figure.savefig(path, dpi=150)
    plt.close(figure)
    return paths


def write_report(
    task: str, matrices: Mapping[str, AgreementMatrix], out_dir: Path
) -> dict[str, Path]:
    """All of one task's agreement outputs under ``out_dir``: pair CSV, zone CSV, Markdown with
    one matrix per level, and a heatmap per level."""
    out_dir = Path(out_dir)
    written = {
        "pairs_csv": write_csv(
            out_dir / f"{task}.pairs.csv", [r for m in matrices.values() for r in matrix_rows(m)]
        ),
        "zones_csv": write_csv(out_dir / f"{task}.zones.csv", zone_table(dict(matrices))),
    }
    text = [f"# Agreement: {task}", "", zones_markdown({task: matrices}), ""]
    for level, matrix in matrices.items():
        text += [f"## {level}", "", matrix_markdown(matrix), ""]
        png, _svg = heatmap(
            matrix, out_dir / f"{task}.{level}", title=f"{task}: Krippendorff's alpha ({level})"
        )
        written[f"heatmap_{level}"] = png
    markdown = out_dir / f"{task}.md"
    markdown.write_text("\n".join(text), encoding="utf-8")
    written["markdown"] = markdown
    return written
