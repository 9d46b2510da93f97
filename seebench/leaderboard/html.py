"""A static, self-contained HTML page: sortable tables and the heatmaps inline (no server).

Click a column header to sort by it; click again to reverse. Numeric cells sort by their
``data-value``; the current order is shown by ``aria-sort`` on the header.
"""

from __future__ import annotations

import html
import math
from pathlib import Path

from seebench.leaderboard.figures import HEATMAPS, render
from seebench.leaderboard.tables import (
    MAGNITUDE_ABBREVIATIONS,
    _settings_line,
    breakdown_grid,
    fact_names,
    fact_notes,
    fact_values,
    fmt,
)
from seebench.stats.report import ComparisonReport

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:1200px;
 padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:1rem 0;font-size:.9rem}
th,td{padding:.25rem .6rem;border-bottom:1px solid #ddd;text-align:right;white-space:nowrap}
th{cursor:pointer;user-select:none;background:#f4f4f4;position:sticky;top:0}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.text,th.text{text-align:left}.note{background:#fff8e1;padding:.5rem 1rem;border-left:4px solid #f0c000}
.scroll{overflow-x:auto}figure{margin:1rem 0}figure svg{max-width:100%;height:auto}
"""

_JS = """
function sortTable(th){
  const table=th.closest('table'), body=table.tBodies[0];
  const index=Array.from(th.parentNode.children).indexOf(th);
  const numeric=th.dataset.type==='number';
  const dir=th.getAttribute('aria-sort')==='ascending'?'descending':'ascending';
  table.querySelectorAll('th').forEach(h=>h.removeAttribute('aria-sort'));
  th.setAttribute('aria-sort',dir);
  const key=row=>{const c=row.cells[index];const v=c.dataset.value!==undefined?c.dataset.value:c.textContent;
    if(!numeric)return v.trim().toLowerCase();const x=parseFloat(v);return isNaN(x)?-Infinity:x;};
  const rows=Array.from(body.rows).map((r,i)=>[key(r),i,r]);
  rows.sort((a,b)=>{const s=a[0]<b[0]?-1:a[0]>b[0]?1:a[1]-b[1];return dir==='ascending'?s:-s;});
  rows.forEach(r=>body.appendChild(r[2]));
}
document.querySelectorAll('table.sortable th').forEach(th=>th.addEventListener('click',()=>sortTable(th)));
"""


class _Link(str):
    """A text cell that links to ``href`` (a task's page in a ``seebench view`` site)."""

    href = ""


def _link(text: str, site: str | None) -> str:
    if not site:
        return text
    from urllib.parse import quote

    cell = _Link(text)
    cell.href = f"{site.rstrip('/')}/task/{quote(text, safe='')}.html"
    return cell


def _cell(value: object, digits: int = 3) -> str:
    if isinstance(value, _Link):
        text, href = html.escape(str(value)), html.escape(value.href)
        return f'<td class="text" data-value="{text}"><a href="{href}">{text}</a></td>'
    if isinstance(value, float):
        data = "" if math.isnan(value) else repr(value)
        return f'<td data-value="{data}">{fmt(value, digits)}</td>'
    if isinstance(value, int):
        return f'<td data-value="{value}">{value}</td>'
    return f'<td class="text">{html.escape(str(value))}</td>'


def _table(table_id: str, headers: list[tuple[str, str]], rows: list[list[object]]) -> str:
    head = "".join(
        f'<th data-type="{kind}"{" class=text" if kind == "text" else ""}>{html.escape(label)}</th>'
        for label, kind in headers
    )
    body = "\n".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in rows)
    return (
        f'<div class="scroll"><table id="{table_id}" class="sortable"><thead><tr>{head}</tr></thead>'
        f"<tbody>\n{body}\n</tbody></table></div>"
    )


def _ranking(report: ComparisonReport) -> str:
    c, sp = report.center_label.capitalize(), report.spread_label
    headers = [
        ("Rank", "number"),
        ("Tier", "number"),
        ("Model", "text"),
        (c, "number"),
        (sp, "number"),
        ("CI low", "number"),
        ("CI high", "number"),
        (report.effect_size_label, "number"),
        ("Mag.", "text"),
        ("P(top > model)", "number"),
        ("P(top = model)", "number"),
        ("Shapiro-Wilk p", "number"),
    ]
    rows = [
        [
            r.rank,
            r.tier,
            r.model,
            r.center,
            r.spread,
            r.ci_lower,
            r.ci_upper,
            r.effect_size,
            MAGNITUDE_ABBREVIATIONS[r.magnitude],
            r.p_top_better,
            r.p_top_equal,
            r.shapiro_p,
        ]
        for r in report.rows
    ]
    names = fact_names(report)  # items (--limit runs), scored, unscored (infra_error)
    headers += [(name, "text" if name == "Items" else "number") for name in names]
    for row, r in zip(rows, report.rows, strict=True):
        row += [math.nan if v is None else v for v in fact_values(report, r.model)]
    return _table("ranking", headers, rows)


def _breakdown(report: ComparisonReport) -> str:
    groups, grid = breakdown_grid(report)
    headers = [("Dimension", "text"), ("Value", "text")]
    for g in groups:
        headers += [(f"{g} M", "number"), (f"{g} SD", "number")]
    rows = []
    for dim, value, cells in grid:
        row: list[object] = [dim, value]
        for g in groups:
            row += [cells[g].mean, cells[g].sd] if g in cells else [math.nan, math.nan]
        rows.append(row)
    return _table("breakdown", headers, rows)


def _pairs(report: ComparisonReport) -> str:
    headers = [
        ("Model A", "text"),
        ("Model B", "text"),
        ("P(A > B)", "number"),
        ("P(A = B)", "number"),
        ("P(B > A)", "number"),
        ("ROPE", "number"),
        ("Decision", "text"),
    ]
    rows = [
        [
            p["a"],
            p["b"],
            float(p["p_a_better"]),
            float(p["p_equal"]),
            float(p["p_b_better"]),
            float(p["rope"]),
            p["decision"],
        ]
        for p in report.pairs()
    ]
    return _table("pairs", headers, rows)


def _per_task(report: ComparisonReport) -> str:
    m = report.matrix
    headers = [("Task", "text"), ("Type", "text"), ("Family", "text")] + [
        (x, "number") for x in m.models
    ]
    site = report.extra.get("view_site")  # compare --view-site: tasks link to their samples
    rows = [
        [_link(task, site), m.task_types[t], m.task_families[t], *map(float, m.scores[t])]
        for t, task in enumerate(m.tasks)
    ]
    return _table("per-task", headers, rows)


def _groups(report: ComparisonReport) -> str:
    """The task groups' aggregate scores (``report.extra["task_groups"]``, from compare)."""
    rows = report.extra.get("task_groups") or []
    if not rows:
        return ""
    headers = [("Group", "text"), ("Aggregation", "text")] + [
        (x, "number") for x in report.matrix.models
    ]
    body = [
        [
            "\u00a0\u00a0" * r["depth"] + r["name"],
            r["aggregation"],
            *(math.nan if v is None else float(v) for v in r["scores"]),
        ]
        for r in rows
    ]
    return "<h2>Task groups</h2>" + _table("task-groups", headers, body)


def _inline_svg(data: bytes) -> str:
    text = data.decode("utf-8")
    return text[text.index("<svg") :]


def page(report: ComparisonReport) -> str:
    """The HTML text of the leaderboard page."""
    title = html.escape(report.title)
    notes = "".join(f'<p class="note">{html.escape(n)}</p>' for n in report.notes)
    notes += "".join(f'<p class="note">{html.escape(n)}</p>' for n in fact_notes(report) if n)
    left_out = report.extra.get("left_out") or []
    if left_out:
        items = "".join(f"<li>{html.escape(line)}</li>" for line in left_out)
        notes += f'<p class="note">Left out:</p><ul>{items}</ul>'
    tiers = "".join(f"<li>{html.escape(', '.join(t))}</li>" for t in report.tiers)
    figures = "".join(
        f'<figure id="fig-{name}">{_inline_svg(render(report, name, "svg"))}'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        for name, caption in HEATMAPS.items()
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title><style>{_CSS}</style></head>
<body>
<h1>{title}</h1>
<p>{html.escape(_settings_line(report))}</p>
{notes}
<h2>Ranking</h2>
<p>Click a column header to sort.</p>
{_ranking(report)}
<h2>Tiers</h2><ol>{tiers}</ol>
<h2>Breakdown by task family and task type</h2>
{_breakdown(report)}
{_groups(report)}
<h2>Pairwise posteriors</h2>
{figures}
{_pairs(report)}
<h2>Scores per task</h2>
{_per_task(report)}
<p>Sources: {html.escape(", ".join(report.sources) or "(in memory)")}. Generated by <code>seebench compare</code>.</p>
<script>{_JS}</script>
</body></html>
"""


def export_html(report: ComparisonReport, out_dir: Path) -> list[Path]:
    """``index.html``: the self-contained leaderboard page."""
    path = out_dir / "index.html"
    path.write_text(page(report), encoding="utf-8")
    return [path]
