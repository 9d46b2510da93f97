"""Per-model facts the ranking tables show beside the statistics: the samples a model's
scores rest on, those left unscored (``infra_error``: the sandbox, a worker, an environment
or the harness failed; never the model's failure) and, for results of ``--limit`` runs, how
many test items each task was scored on.

``report.extra`` carries them: ``counts`` (``{model: {task: {"scored", "excluded"}}}``) and
``limited`` (``{model: {task: N or how}}``), both filled by ``seebench compare``.
"""

from __future__ import annotations

from typing import Any

#: The footnote of the unscored column.
UNSCORED_NOTE = (
    "Unscored: samples left out of the scores because the infrastructure failed (infra_error: "
    "the sandbox, a worker, a repository environment or the harness) or could not run; they "
    "are never counted as the model's failures."
)
#: The footnote of the items column.
ITEMS_NOTE = (
    "Items: 'all' = the task's full test set; 'first N' = a --limit N run, scored on the first "
    "N test items of each task only ('chosen ids' = an --samples run), so its scores rest on fewer items than the full runs' "
    "and are ranked beside them only because the comparison was asked to (--include-limited)."
)


def counts(report: Any, model: str) -> tuple[int, int] | None:
    """(scored, unscored) summed over the model's tasks on the board, or ``None``."""
    cells = list(((report.extra.get("counts") or {}).get(model) or {}).values())
    if not cells:
        return None
    return sum(int(c["scored"]) for c in cells), sum(int(c["excluded"]) for c in cells)


def has_counts(report: Any) -> bool:
    """Whether the board knows the sample counts of its models."""
    return bool(report.extra.get("counts"))


def has_unscored(report: Any) -> bool:
    """Whether any model of the board has unscored samples (the column is shown then only)."""
    return any(
        int(cell["excluded"]) > 0
        for tasks in (report.extra.get("counts") or {}).values()
        for cell in tasks.values()
    )


def has_limited(report: Any) -> bool:
    """Whether some model of the board is ranked from ``--limit`` runs."""
    return bool(report.extra.get("limited"))


def items(report: Any, model: str) -> str:
    """``all``, ``first N`` or ``first N-M`` (limits differing between tasks), and ``chosen
    ids`` where some task was run on ``--samples``."""
    values = set(((report.extra.get("limited") or {}).get(model) or {}).values())
    limits = sorted(v for v in values if isinstance(v, int))
    labels = []
    if limits:
        labels.append(
            f"first {limits[0]}" if len(limits) == 1 else f"first {limits[0]}-{limits[-1]}"
        )
    if any(not isinstance(v, int) for v in values):
        labels.append("chosen ids")
    return ", ".join(labels) or "all"
