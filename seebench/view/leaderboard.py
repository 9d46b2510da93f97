"""The leaderboard of ``seebench compare`` over what the viewer was given.

Scores come from the catalog's trusted units (never re-read from disk, so a hostile file
cannot hang or crash it) and from any score CSV given as an input (the SELU paper's table,
say); the statistics are :func:`seebench.stats.compare_models` with compare's defaults.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError

if TYPE_CHECKING:
    from seebench.registry import Registry
    from seebench.view.catalog import Unit


def score_table(units: Iterable[Unit], csv_inputs: Iterable[Path]) -> Any:
    """A :class:`seebench.leaderboard.inputs.ScoreTable` of the ok units and the CSV inputs."""
    from seebench.leaderboard.inputs import ScoreTable, normalise_task_type, read_csv, run_subset

    table = ScoreTable()
    for unit in units:
        result = unit.result
        if result is None or result.get("status") != "ok" or result.get("scored") is False:
            continue
        metric = result["primary_metric"]
        score = result["metrics"].get(metric)
        if score is None:
            continue
        task = result["task"]
        table.records.append((unit.label, task["name"], float(score)))
        subset = run_subset(result)
        if subset is not None:
            table.limited[(unit.label, task["name"])] = subset
        table.task_metrics[task["name"]] = metric
        recorded = (result.get("metric_info", {}).get(metric) or {}).get("higher_is_better")
        if isinstance(recorded, bool):
            table.task_directions[task["name"]] = recorded
        table.task_suites[task["name"]] = str(task["suite"])
        table.task_types[task["name"]] = normalise_task_type(str(task["type"]))
        family = (task.get("tags") or {}).get("family")
        if family:
            table.task_families[task["name"]] = str(family)
    for path in csv_inputs:
        read_csv(path, table)
        table.sources.append(str(path))
    return table


def build_report(table: Any, registry: Registry) -> Any:
    """The comparison report of ``table``, or :class:`SeebenchError` saying why there is none."""
    from seebench.leaderboard.inputs import compared_tasks
    from seebench.stats import Settings, compare_models

    limited = table.drop_limited()
    if not table.records:
        raise SeebenchError("no scores to rank" + _limited_note(limited))
    kept, dropped = compared_tasks(table, registry, ())
    selected = table.to_matrix(registry).select_tasks(kept)
    complete = _largest_complete(selected)
    if len(complete.models) < 2 or len(complete.tasks) < 3:
        raise SeebenchError(
            f"a leaderboard needs at least 2 models with scores on the same 3 tasks; found "
            f"{len(complete.models)} model(s) and {len(complete.tasks)} common task(s)"
            + _limited_note(limited)
        )
    try:
        report = compare_models(
            complete,  # compare's defaults (Settings()), as docs/view.md says
            Settings(),
            breakdown_matrix=selected,
            title="Leaderboard",
            sources=tuple(table.sources),
        )
    except ValueError as exc:
        raise SeebenchError(str(exc)) from None
    notes = (*report.notes, *left_out_notes(selected, complete, dropped, limited))
    return dataclasses.replace(report, notes=notes)


def left_out_notes(
    selected: Any, complete: Any, dropped: dict[str, str], limited: list[str]
) -> list[str]:
    """One line for each model, task or result the ranking leaves out, and why."""
    import numpy as np

    notes = [f"left out {line}: a subset of the items" for line in limited]
    notes += [f"left out task {task}: {reason}" for task, reason in dropped.items()]
    scored = ~np.isnan(selected.scores)
    for m, model in enumerate(selected.models):
        if model not in complete.models:
            count = int(scored[:, m].sum())
            notes.append(
                f"left out model {model}: scores on {count} of the {len(selected.tasks)} tasks; "
                "the ranking needs every model on the same tasks"
            )
    for task in selected.tasks:
        if task not in complete.tasks:
            notes.append(f"left out task {task}: not every ranked model has a score on it")
    return notes


def _limited_note(limited: list[str]) -> str:
    return f" ({len(limited)} result(s) of --limit or --samples runs left out)" if limited else ""


def _largest_complete(matrix: Any) -> Any:
    """The complete sub-matrix with the most scores among a few candidates: tasks scored by
    at least k models (for every k), then only the models that scored all of those."""
    import numpy as np

    scored = ~np.isnan(matrix.scores)
    best, best_size = None, (False, -1)
    for k in sorted(set(scored.sum(axis=1).tolist()), reverse=True):
        tasks = [t for t, row in zip(matrix.tasks, scored, strict=True) if row.sum() >= k]
        candidate = matrix.select_tasks(tasks).complete("drop-models")
        valid = len(candidate.models) >= 2 and len(candidate.tasks) >= 3
        size = (valid, len(candidate.models) * len(candidate.tasks))
        if best is None or size > best_size:
            best, best_size = candidate, size
    return best if best is not None else matrix.complete("drop-tasks")


def leaderboard_context(report: Any, units: list[Unit], groups: Any) -> dict[str, Any]:
    """What ``leaderboard.html`` shows of ``report``: ranking, task groups, scores per task
    linked to their units and task pages, the posterior heatmaps (inline SVG)."""
    from markupsafe import Markup

    from seebench.leaderboard.figures import HEATMAPS
    from seebench.leaderboard.figures import render as render_figure
    from seebench.view.render import TASK_NAME

    context: dict[str, Any] = {}
    by_key = {(u.label, u.task): u for u in units}
    models = list(report.models)
    matrix = report.matrix
    tasks = []
    for t, task in enumerate(matrix.tasks):
        cells = []
        for m, model in enumerate(models):
            unit = by_key.get((model, task))
            href = f"unit/{unit.uid}/page-1.html" if unit is not None else ""
            cells.append({"value": _num(matrix.scores[t, m]), "href": href})
        known = any(u.task == task for u in units)
        href = f"task/{task}.html" if known and TASK_NAME.match(task) else ""
        tasks.append({"name": task, "type": matrix.task_types[t], "cells": cells, "href": href})
    figures = []
    for name, caption in HEATMAPS.items():
        text = render_figure(report, name, "svg").decode("utf-8")
        figures.append({"svg": Markup(text[text.index("<svg") :]), "caption": caption})
    context.update(
        settings=(
            f"{report.center_label} ± {report.spread_label}; alpha "
            f"{report.settings.alpha}; ROPE {report.settings.rope} "
            f"({report.settings.rope_mode})"
        ),
        notes=list(report.notes),
        center=report.center_label,
        spread=report.spread_label,
        ranking=list(report.rows),
        models=models,
        tasks=tasks,
        figures=figures,
        groups=_group_rows(report, groups),
    )
    return context


def board(units: list[Unit], csv_inputs: Iterable[Path], groups: Any, registry: Any) -> dict:
    """The leaderboard page's context (``problem``: why there is none), from scratch."""
    try:
        if registry is None:
            raise SeebenchError("no plugin registry given")
        report = build_report(score_table(units, csv_inputs), registry)
    except SeebenchError as exc:
        return {"problem": str(exc)}
    return {"problem": "", **leaderboard_context(report, units, groups)}


def _group_rows(report: Any, groups: Any) -> list[dict[str, Any]]:
    if groups is None:
        return []
    from seebench.scoring.groups import matrix_group_scores

    return matrix_group_scores(groups, report.matrix)


def _num(value: Any) -> float | None:
    import math

    value = float(value)
    return None if math.isnan(value) else value
