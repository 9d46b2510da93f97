"""Generate the SELU task table of ``docs/tasks/selu.md`` from the task YAMLs (and, where the data
is cached, the rows found by ``seebench data status``).

Usage: ``python -m seebench.suites.selu.doc_table docs/tasks/selu.md`` rewrites the part between
the markers below; the rest of the file is prose written by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from seebench.data.sources import UNPINNED
from seebench.tasks.types import NUMBER

BEGIN = "<!-- BEGIN generated: python -m seebench.suites.selu.doc_table docs/tasks/selu.md -->"
END = "<!-- END generated -->"


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def task_rows(
    tasks: list[Any], statuses: dict[str, dict[str, Any]] | None = None
) -> list[list[str]]:
    """One table row per task: name, type, labels, source, licence, availability, rows."""
    from seebench.data.manage import split_method

    statuses = statuses or {}
    rows = []
    for task in sorted(tasks, key=lambda t: (t.type, t.name)):
        sources = task.data.get("sources", [])
        homes = sorted({s.get("homepage") or s.get("url", "") for s in sources})
        licences = sorted({s.get("license", "?") for s in sources})
        status = statuses.get(task.name, {})
        found = status.get("rows")
        paper = task.tags.get("paper_instances", "-")
        if task.target_kind == NUMBER and task.value_range:
            labels = f"[{task.value_range[0]:g}, {task.value_range[1]:g}]"
        elif task.labels:
            labels = ", ".join(task.label_names)
        else:
            labels = "masked words"
        pinned = all(s.get("sha256", UNPINNED) != UNPINNED for s in sources)
        available = (
            "yes"
            if found is not None
            else ("not here (url + sha256 pinned)" if pinned else "not here")
        )
        split = split_method(task)
        rows.append(
            [
                task.name,
                task.type,
                labels,
                task.family or "-",
                task.activity or "-",
                "<br>".join(homes),
                ", ".join(licences),
                available,
                split,
                f"{found:,}" if isinstance(found, int) else "-",
                f"{int(paper):,}" if str(paper).isdigit() else str(paper),
            ]
        )
    return rows


def task_table(tasks: list[Any], statuses: dict[str, dict[str, Any]] | None = None) -> str:
    """The Markdown table of ``tasks``."""
    head = [
        "task",
        "type",
        "labels",
        "family",
        "activity",
        "source",
        "licence",
        "data here",
        "split",
        "rows here",
        "Table I",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in task_rows(tasks, statuses):
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return "\n".join(lines)


def update_document(path: Path, table: str) -> None:
    """Replace the generated part of ``path`` (between the markers) by ``table``."""
    text = path.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{path}: markers {BEGIN!r} / {END!r} not found")
    before, rest = text.split(BEGIN, 1)
    _, after = rest.split(END, 1)
    path.write_text(f"{before}{BEGIN}\n{table}\n{END}{after}", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    """Regenerate the table in the given Markdown file (rows from the local data cache)."""
    from seebench.data.manage import task_status
    from seebench.plugin_manager import get_registry, get_task_index

    args = argv if argv is not None else sys.argv[1:]
    target = Path(args[0] if args else "docs/tasks/selu.md")
    tasks = [t for t in get_task_index().tasks.values() if t.suite == "selu"]
    registry = get_registry()
    statuses = {t.name: task_status(t, registry) for t in tasks}
    update_document(target, task_table(tasks, statuses))
    print(f"{target}: table of {len(tasks)} SELU tasks written")


if __name__ == "__main__":  # pragma: no cover
    main()
