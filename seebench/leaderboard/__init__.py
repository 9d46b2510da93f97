"""Leaderboards from a :class:`seebench.stats.ComparisonReport`: tables, figures, a static page.

The exporters are registered by the built-in plugin ``seebench.builtin.compare`` under the
names in :data:`EXPORTERS`.
"""

from __future__ import annotations

#: name -> (import path of the exporter, description).
EXPORTERS: dict[str, tuple[str, str]] = {
    "markdown": (
        "seebench.leaderboard.tables:export_markdown",
        "leaderboard.md: ranking, tiers, breakdown",
    ),
    "latex": (
        "seebench.leaderboard.tables:export_latex",
        "leaderboard.tex: booktabs ranking and breakdown tables",
    ),
    "csv": ("seebench.leaderboard.tables:export_csv", "leaderboard.csv, pairs.csv, breakdown.csv"),
    "json": ("seebench.leaderboard.tables:export_json", "leaderboard.json: the whole report"),
    "per-task": (
        "seebench.leaderboard.tables:export_per_task",
        "per_task.csv and per_task.md: scores per task",
    ),
    "groups": (
        "seebench.scoring.groups:export_groups",
        "groups.csv: the declared task groups' aggregate scores per model",
    ),
    "figures": (
        "seebench.leaderboard.figures:export_figures",
        "posterior and decision heatmaps (PNG and SVG)",
    ),
    "html": (
        "seebench.leaderboard.html:export_html",
        "index.html: self-contained page with sortable tables",
    ),
}

__all__ = ["EXPORTERS"]
