"""The admin page: progress per condition and the export link (token-protected by the app)."""

from __future__ import annotations

from html import escape
from typing import Any
from urllib.parse import quote

from seebench.secrets import scrub
from seebench_study.definition import Study


def admin_page(
    study: Study,
    progress: list[dict[str, Any]],
    token: str,
    errors: dict[str, int] | None = None,
) -> str:
    """The admin page's HTML (every value escaped, model specs scrubbed of credentials);
    ``errors`` counts the model errors per condition."""
    errors = errors or {}
    by_condition = {row["condition"]: row for row in progress}
    rows = []
    for condition in study.conditions:
        row = by_condition.get(condition.id, {})
        cells = [
            condition.id,
            condition.kind,
            scrub(condition.model or ""),
            row.get("sessions", 0),
            row.get("finished", 0),
            row.get("passed", 0),
            row.get("skipped", 0),
            row.get("events", 0),
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
    export = f"admin/events.jsonl?token={quote(token)}"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(study.title)}: admin</title>
<meta name="referrer" content="no-referrer">
<link rel="stylesheet" href="static/study.css"></head>
<body class="admin"><h1>{escape(study.name)}: progress</h1>
<table id="progress"><thead><tr>{header}</tr></thead><tbody>{"".join(rows)}</tbody></table>
<p><a id="export" href="{escape(export)}">Download every event (JSONL)</a>;
<code>seebench study export</code> makes CSV and Parquet from the database.</p>
</body></html>
"""
