"""The admin page: progress per condition and the export link (token-protected by the app).

Counts come from the server's own facts (never a browser's claim), leave out the tutorial,
and leave out the sessions the analysis' default exclusion rules would: the line under the
table says how many each rule removed.
"""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from seebench.secrets import scrub
from seebench_study.definition import Study

#: Why a session is not counted, in the analysis' rule names (docs/study_analysis.md).
EXCLUSION_REASONS = {
    "no-consent": "did not accept the consent form",
    "screened-out": "screened out",
    "no-task": "no task opened after the tutorial (yet)",
}


def exclusion_of(summary: dict[str, Any]) -> str | None:
    """The rule that leaves a session out of the admin counts, or ``None``."""
    if summary["phase"] in (None, "consent", "declined"):
        return "no-consent"
    if summary["phase"] == "screened_out":
        return "screened-out"
    if summary["opened"] == 0:
        return "no-task"
    return None


def tally(study: Study, summaries: list[dict[str, Any]]) -> tuple[dict[str, dict], dict]:
    """Counts per condition of the sessions kept, and the sessions excluded per rule."""
    per: dict[str, dict[str, int]] = {
        c.id: {"sessions": 0, "finished": 0, "passed": 0, "skipped": 0, "events": 0}
        for c in study.conditions
    }
    excluded = dict.fromkeys(EXCLUSION_REASONS, 0)
    for summary in summaries:
        rule = exclusion_of(summary)
        if rule is not None:
            excluded[rule] += 1
            continue
        counts = per.setdefault(summary["condition"], dict.fromkeys(per[study.conditions[0].id], 0))
        counts["sessions"] += 1
        counts["finished"] += summary["finished"]
        for key in ("passed", "skipped", "events"):
            counts[key] += summary[key]
    return per, excluded


def admin_page(
    study: Study,
    summaries: list[dict[str, Any]],
    token: str,
    errors: dict[str, int] | None = None,
) -> str:
    """The admin page's HTML (every value escaped, model specs scrubbed of credentials);
    ``summaries`` are :meth:`StudyStore.session_summaries`, ``errors`` counts the model
    errors per condition."""
    errors = errors or {}
    per, excluded = tally(study, summaries)
    rows = []
    for condition in study.conditions:
        row = per[condition.id]
        cells = [
            condition.id,
            condition.kind,
            scrub(condition.model or ""),
            row["sessions"],
            row["finished"],
            row["passed"],
            row["skipped"],
            row["events"],
            errors.get(condition.id, 0),
        ]
        rows.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
    header = "".join(
        f"<th>{h}</th>"
        for h in (
            "condition",
            "kind",
            "model",
            "sessions",
            "finished",
            "tasks passed",
            "tasks skipped",
            "events",
            "model errors",
        )
    )
    reasons = ", ".join(
        f'<span data-rule="{rule}">{escape(EXCLUSION_REASONS[rule])}: {count}</span>'
        for rule, count in excluded.items()
    )
    export = f"admin/events.jsonl?token={quote(token)}"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(study.title)}: admin</title>
<meta name="referrer" content="no-referrer">
<link rel="stylesheet" href="static/study.css"></head>
<body class="admin"><h1>{escape(study.name)}: progress</h1>
<table id="progress"><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table>
<p id="excluded">Not counted above: {sum(excluded.values())} session(s) ({reasons}).
Tasks count once each, the tutorial never.</p>
<p><a id="export" href="{escape(export)}">Download every event (JSONL)</a>;
<code>seebench study export</code> makes CSV and Parquet from the database.</p>
</body></html>
"""
