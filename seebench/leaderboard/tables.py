"""Table exporters: Markdown, LaTeX (booktabs), CSV, JSON and the per-task score table.

Each exporter has the signature ``exporter(report, out_dir) -> list[Path]`` and returns the
files it wrote.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from seebench.leaderboard import row_facts
from seebench.leaderboard.csv_cells import safe_record, safe_row
from seebench.stats.report import ComparisonReport

#: Abbreviations of effect size magnitudes, as in the paper's Table IV.
MAGNITUDE_ABBREVIATIONS = {
    "negligible": "neg.",
    "small": "sml.",
    "medium": "med.",
    "large": "lar.",
    "undefined": "n/a",  # no spread: the effect size is not defined
}


def fmt(value: float | None, digits: int = 3) -> str:
    """A number with ``digits`` decimals; missing values as an en dash."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:.{digits}f}"


def breakdown_grid(report: ComparisonReport) -> tuple[list[str], list[tuple[str, str, dict]]]:
    """Groups (columns) and rows ``(dimension, value, {group: BreakdownRow})`` of the breakdown."""
    groups = list(dict.fromkeys(row.group for row in report.breakdown))
    rows: dict[tuple[str, str], dict] = {}
    for row in report.breakdown:
        rows.setdefault((row.dimension, row.value), {})[row.group] = row
    return groups, [(dim, value, cells) for (dim, value), cells in rows.items()]


def _settings_line(report: ComparisonReport) -> str:
    s = report.settings
    rope = (
        f"{s.rope} pooled {report.spread_label}s"
        if s.rope_mode == "effsize"
        else f"{s.rope} (absolute)"
    )
    direction = "" if report.higher_is_better else " (lower scores are better)"
    return (
        f"{len(report.models)} models on {len(report.matrix.tasks)} tasks{direction}; Bayesian signed-rank "
        f"test with ROPE {rope}, {s.nsamples} posterior samples (seed {s.seed}), decisions at "
        f"{s.threshold:.2f}; {_ci_level(report)} CIs (--ci-correction {s.ci_correction})."
    )


def _ci_level(report: ComparisonReport) -> str:
    return f"{100 * (1 - report.ci_alpha):.4g}%"


def export_markdown(report: ComparisonReport, out_dir: Path) -> list[Path]:
    """``leaderboard.md``: ranking, tiers, breakdown and notes."""
    c, sp = report.center_label.capitalize(), report.spread_label
    es = "d" if report.parametric else "γ"
    lines = [f"# {report.title}", "", _settings_line(report), ""]
    lines += [f"> {note}" for note in report.notes]
    lines += ["", "## Ranking", ""]
    extra_head, extra_rule = _fact_columns(report)
    lines.append(
        f"| Rank | Tier | Model | {c} | {sp} | CI | {es} | Mag. | P(top > model) | "
        f"P(top = model) |{extra_head}"
    )
    lines.append("|---:|---:|:---|---:|---:|:---:|---:|:---|---:|---:|" + extra_rule)
    for row in report.rows:
        lines.append(
            f"| {row.rank} | {row.tier} | {_md(row.model)} | {fmt(row.center)} | {fmt(row.spread)} | "
            f"[{fmt(row.ci_lower)}, {fmt(row.ci_upper)}] | {fmt(row.effect_size)} | "
            f"{MAGNITUDE_ABBREVIATIONS[row.magnitude]} | {fmt(row.p_top_better)} | {fmt(row.p_top_equal)} |"
            + _fact_cells(report, row.model)
        )
    lines += ["", "## Tiers", ""]
    lines += [f"{n}. {', '.join(_md(m) for m in tier)}" for n, tier in enumerate(report.tiers, 1)]
    groups, grid = breakdown_grid(report)
    lines += ["", "## Breakdown by task family and task type", ""]
    lines.append("| | " + " | ".join(f"{_md(g)} M | {_md(g)} SD" for g in groups) + " |")
    lines.append("|:---|" + "---:|---:|" * len(groups))
    for _dim, value, cells in grid:
        values = " | ".join(
            f"{fmt(cells[g].mean)} | {fmt(cells[g].sd)}" if g in cells else "– | –" for g in groups
        )
        lines.append(f"| {_md(value)} | {values} |")
    lines += fact_notes(report)
    left_out = report.extra.get("left_out") or []
    if left_out:
        lines += ["", "## Left out", "", *(f"- {_md(line)}" for line in left_out)]
    lines += ["", f"Sources: {', '.join(report.sources) or '(in memory)'}", ""]
    path = out_dir / "leaderboard.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    return [path]


def _fact_columns(report: ComparisonReport) -> tuple[str, str]:
    """Header and rule cells of the columns beside the statistics (items, scored, unscored)."""
    names = fact_names(report)
    return "".join(f" {n} |" for n in names), "---:|" * len(names)


def fact_names(report: ComparisonReport) -> list[str]:
    """The columns beside the statistics: Items (with --limit runs), Scored, Unscored (any)."""
    names = ["Items"] if row_facts.has_limited(report) else []
    if row_facts.has_counts(report):
        names.append("Scored")
        if row_facts.has_unscored(report):
            names.append("Unscored")
    return names


def fact_values(report: ComparisonReport, model: str) -> list[Any]:
    """The model's values of :func:`_fact_names`' columns (``None``: not known)."""
    values: list[Any] = [row_facts.items(report, model)] if row_facts.has_limited(report) else []
    if row_facts.has_counts(report):
        counted = row_facts.counts(report, model)
        values.append(counted[0] if counted else None)
        if row_facts.has_unscored(report):
            values.append(counted[1] if counted else None)
    return values


def _fact_cells(report: ComparisonReport, model: str) -> str:
    cells = []
    for value in fact_values(report, model):
        cells.append("–" if value is None else f"{value:,}" if isinstance(value, int) else value)
    return "".join(f" {cell} |" for cell in cells)


def fact_notes(report: ComparisonReport) -> list[str]:
    """The footnotes of those columns (empty strings separate paragraphs)."""
    notes = []
    if row_facts.has_limited(report):
        notes += ["", row_facts.ITEMS_NOTE]
    if row_facts.has_counts(report):
        notes += ["", "Scored: the samples (x repeats) the scores rest on, summed over the tasks."]
        if row_facts.has_unscored(report):
            notes += ["", row_facts.UNSCORED_NOTE]
    return notes


def _md(text: str) -> str:
    return text.replace("|", "\\|")


_LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    """Escape the characters that LaTeX treats specially."""
    return "".join(_LATEX_SPECIALS.get(ch, ch) for ch in text)


def export_latex(report: ComparisonReport, out_dir: Path) -> list[Path]:
    """``leaderboard.tex``: the ranking (as Table IV) and the breakdown (as Table V), booktabs."""
    c, sp = ("M", "SD") if report.parametric else ("Mdn", "MAD")
    es = "$d$" if report.parametric else r"$\gamma$"
    out = [
        "% Generated by seebench compare. Needs \\usepackage{booktabs}.",
        r"\begin{table}[t]",
        r"\centering",
        rf"\caption{{Ranking of models and effect size ({es}) compared to the top-ranked model; "
        rf"{latex_escape(_ci_level(report))} confidence intervals.}}",
        r"\label{tab:leaderboard}",
        r"\begin{tabular}{rlrrcrl}",
        r"\toprule",
        rf"Tier & Model & {c} & {sp} & CI & {es} & Mag. \\",
        r"\midrule",
    ]
    previous_tier = 1
    for row in report.rows:
        if row.tier != previous_tier:
            out.append(r"\midrule")
            previous_tier = row.tier
        out.append(
            f"{row.tier} & {latex_escape(row.model)}{_latex_mark(report, row.model)} & "
            f"{fmt(row.center)} & {fmt(row.spread)} & "
            f"[{fmt(row.ci_lower)}, {fmt(row.ci_upper)}] & {fmt(row.effect_size)} & "
            f"{MAGNITUDE_ABBREVIATIONS[row.magnitude]} \\\\"
        )
    out += [r"\bottomrule", r"\end{tabular}", *_latex_limited_note(report), r"\end{table}", ""]
    groups, grid = breakdown_grid(report)
    out += [
        r"\begin{table}[t]",
        r"\centering",
        r"\caption{Scores by task family and task type (pooled over models and tasks).}",
        r"\label{tab:breakdown}",
        r"\begin{tabular}{l" + "rr" * len(groups) + "}",
        r"\toprule",
        " & "
        + " & ".join(rf"\multicolumn{{2}}{{c}}{{{latex_escape(g)}}}" for g in groups)
        + r" \\",
        "".join(rf"\cmidrule(lr){{{2 + 2 * i}-{3 + 2 * i}}}" for i in range(len(groups))),
        "Task family / Task type & " + " & ".join("M & SD" for _ in groups) + r" \\",
        r"\midrule",
    ]
    previous_dim = None
    for dim, value, cells in grid:
        if previous_dim is not None and dim != previous_dim:
            out.append(r"\midrule")
        previous_dim = dim
        values = " & ".join(
            f"{fmt(cells[g].mean)} & {fmt(cells[g].sd)}" if g in cells else "-- & --"
            for g in groups
        )
        out.append(f"{latex_escape(value)} & {values} \\\\")
    out += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    path = out_dir / "leaderboard.tex"
    path.write_text("\n".join(out), encoding="utf-8")
    return [path]


def _latex_mark(report: ComparisonReport, model: str) -> str:
    limited = row_facts.items(report, model)
    return r"$^\dagger$" if limited != "all" else ""


def _latex_limited_note(report: ComparisonReport) -> list[str]:
    if not row_facts.has_limited(report):
        return []
    return [
        r"\par\smallskip{\footnotesize $^\dagger$ scored on the first test items of each task "
        r"only (\texttt{--limit}), not the full test sets of the other rows.}"
    ]


def export_csv(report: ComparisonReport, out_dir: Path) -> list[Path]:
    """``leaderboard.csv`` (ranking), ``pairs.csv`` (posteriors) and ``breakdown.csv``."""
    data = report.to_dict()
    names = [n.lower() for n in fact_names(report)]
    ranking = [
        {**row, **dict(zip(names, fact_values(report, row["model"]), strict=True))}
        for row in data["ranking"]
    ]
    written = []
    for name, rows in (
        ("leaderboard", ranking),
        ("pairs", data["pairs"]),
        ("breakdown", data["breakdown"]),
    ):
        path = out_dir / f"{name}.csv"
        with path.open("w", newline="", encoding="utf-8") as handle:
            safe = [safe_record(row) for row in rows]  # no cell a spreadsheet runs
            writer = csv.DictWriter(handle, fieldnames=list(safe[0]) if safe else [])
            writer.writeheader()
            writer.writerows(safe)
        written.append(path)
    return written


def export_json(report: ComparisonReport, out_dir: Path) -> list[Path]:
    """``leaderboard.json``: the whole report (ranking, pairs, tiers, breakdown, scores)."""
    path = out_dir / "leaderboard.json"
    path.write_text(
        json.dumps(report.to_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return [path]


def export_per_task(report: ComparisonReport, out_dir: Path) -> list[Path]:
    """``per_task.csv`` and ``per_task.md``: tasks as rows, models (in rank order) as columns."""
    m = report.matrix
    header = ["task", "type", "family", *m.models]
    rows = [
        [task, m.task_types[t], m.task_families[t], *(fmt(v) for v in m.scores[t])]
        for t, task in enumerate(m.tasks)
    ]
    csv_path = out_dir / "per_task.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(safe_row(header))
        writer.writerows(
            safe_row(
                [task, m.task_types[t], m.task_families[t], *(repr(float(v)) for v in m.scores[t])]
            )
            for t, task in enumerate(m.tasks)
        )
    best = m.scores.max(axis=1)
    md = [
        "| " + " | ".join(_md(h) for h in header) + " |",
        "|" + ":---|" * 3 + "---:|" * len(m.models),
    ]
    counts = report.extra.get("counts") or {}
    for t, row in enumerate(rows):
        cells = [
            f"**{v}**" if i >= 3 and m.scores[t, i - 3] == best[t] else _md(v)
            for i, v in enumerate(row)
        ]
        for i, model in enumerate(m.models):  # "0.800 (n 5, 190 unscored)"
            cell = (counts.get(model) or {}).get(m.tasks[t])
            if cell:
                extra = f", {cell['excluded']} unscored" if cell["excluded"] else ""
                cells[3 + i] += f" (n {cell['scored']}{extra})"
        md.append("| " + " | ".join(cells) + " |")
    md_path = out_dir / "per_task.md"
    md_path.write_text(
        "# Scores per task\n\nBest score per task in bold"
        + ("; n: samples scored, unscored: left out (infra_error)" if counts else "")
        + ".\n\n"
        + "\n".join(md)
        + "\n",
        encoding="utf-8",
    )
    return [csv_path, md_path]
