"""``seebench compare``: rank models across tasks and publish a leaderboard.

Only click is imported at module level; NumPy, SciPy and matplotlib load when the command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from seebench.errors import SeebenchError

_CI_CORRECTIONS = ("bonferroni", "autorank", "none")
_MISSING = ("overlap", "error", "drop-tasks", "drop-models")


@click.command("compare")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="Directory for the exports (created if needed).",
)
@click.option(
    "--include-type",
    "include_types",
    multiple=True,
    metavar="TYPE",
    help="Also rank tasks of this type where their suite leaves it out by default "
    "('seebench tasks suites' lists the types each suite ranks). Repeatable.",
)
@click.option(
    "--missing",
    type=click.Choice(_MISSING),
    default="overlap",
    show_default=True,
    help="What to do when some model lacks a score on some task: overlap = rank the largest "
    "block of models x tasks that all have scores (and name what is left out); drop-tasks / "
    "drop-models = drop every incomplete task / model; error = refuse.",
)
@click.option(
    "--group-by",
    type=click.Choice(["suite", "none"]),
    default="suite",
    show_default=True,
    help="suite: with tasks of several suites, one leaderboard per suite in OUT/<suite>/ plus "
    "an overall one in OUT/ on the tasks the models share; none: one leaderboard.",
)
@click.option(
    "--ci-correction",
    type=click.Choice(_CI_CORRECTIONS),
    default="bonferroni",
    show_default=True,
    help="Confidence level of the per-model intervals: bonferroni = alpha/k "
    "(family-wise), autorank = alpha/k^2 (as the autorank package), none = alpha.",
)
@click.option(
    "--alpha",
    type=click.FloatRange(0, 1, min_open=True, max_open=True),
    default=0.05,
    show_default=True,
    help="Significance level; decisions need posterior >= 1 - alpha.",
)
@click.option(
    "--rope",
    type=click.FloatRange(min=0),
    default=0.1,
    show_default=True,
    help="Half-width of the region of practical equivalence.",
)
@click.option(
    "--rope-mode",
    type=click.Choice(["effsize", "absolute"]),
    default="effsize",
    show_default=True,
    help="effsize: ROPE in pooled SDs (MADs if non-normal); absolute: in score units.",
)
@click.option(
    "--nsamples",
    type=click.IntRange(min=100),
    default=50_000,
    show_default=True,
    help="Posterior samples per pair.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Random seed of the posterior sampling."
)
@click.option(
    "--mode",
    type=click.Choice(["auto", "parametric", "nonparametric"]),
    default="auto",
    show_default=True,
    help="auto: mean/SD when Shapiro-Wilk accepts normality for all models, else median/MAD.",
)
@click.option(
    "--label",
    type=click.Choice(["id-method", "id"]),
    default="id-method",
    show_default=True,
    help="How models from result directories are named: 'model-id/method' or 'model-id'.",
)
@click.option(
    "--model-groups",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="JSON {model: group} or CSV model,group for the breakdown columns "
    "(models a suite registers groups for are grouped by default).",
)
@click.option(
    "--format",
    "formats",
    multiple=True,
    metavar="NAME",
    help="Only these exporters (repeatable); default: all registered ones.",
)
@click.option(
    "--include-limited",
    is_flag=True,
    help="Also rank results of '--limit N' runs (scored on the first N items only); by default "
    "they are left out, each named in a note.",
)
@click.option("--title", default="Leaderboard", show_default=True, help="Title of the pages.")
@click.option(
    "--view-site",
    metavar="URL",
    help="Link each task of the HTML leaderboard to its page in a 'seebench view --export' "
    "site at URL (absolute, or relative to --out).",
)
def compare_command(
    inputs: tuple[Path, ...],
    out_dir: Path,
    include_types: tuple[str, ...],
    missing: str,
    group_by: str,
    ci_correction: str,
    alpha: float,
    rope: float,
    rope_mode: str,
    nsamples: int,
    seed: int,
    mode: str,
    label: str,
    model_groups: Path | None,
    include_limited: bool,
    formats: tuple[str, ...],
    title: str,
    view_site: str | None,
) -> None:
    """Compare models across tasks and write a leaderboard to --out.

    INPUT is a results directory (<model-id>/<method>/<task>.json files of `seebench eval`)
    or a CSV with columns model,task,score[,task_type][,family][,suite][,metric]. Models are
    ranked by mean score (median if some are not normal) in the direction of the tasks'
    primary metric (ascending for a lower-is-better metric), compared pairwise with the
    Bayesian signed-rank test, grouped into tiers and broken down by task family and type.

    A leaderboard needs at least 2 models with a score on each of at least 3 tasks. Scores of
    several suites (a sweep of `seebench eval --tasks all`) give one leaderboard per suite in
    OUT/<suite>/ and an overall one in OUT/ on the tasks the models share; what each leaves
    out is printed (see --missing, --group-by). A suite may rank only some task types by
    default ('seebench tasks suites' lists them); --include-type adds others. Results of
    `--limit` runs are left out unless --include-limited.
    """
    from seebench.plugin_manager import get_registry
    from seebench.stats import Settings

    registry = get_registry()
    table = _read_scores(inputs, label, model_groups, include_limited)
    plan = _plan_boards(table, registry, include_types, missing, group_by)
    settings = Settings(
        alpha=alpha,
        rope=rope,
        rope_mode=rope_mode,
        nsamples=nsamples,
        seed=seed,
        ci_correction=ci_correction,
        mode=mode,
    )
    several = len(plan.boards) > 1 or bool(plan.skipped and group_by == "suite")
    exporters = _exporters(formats)
    for board in plan.boards:
        report = _board_report(board, table, registry, settings, title, several, view_site)
        _write_board(report, board, out_dir, exporters, several)
    _warn_unsandboxed(table)


def _read_scores(
    inputs: tuple[Path, ...], label: str, model_groups: Path | None, include_limited: bool
) -> Any:
    """The score table of the inputs; results of ``--limit`` runs left out (each named) unless
    ``include_limited``, where each is named in a warning instead."""
    from seebench.leaderboard.inputs import read_inputs, read_model_groups

    table = read_inputs(list(inputs), label=label)
    if model_groups is not None:
        table.model_groups.update(read_model_groups(model_groups))
    if include_limited:
        for (model, task), how in sorted(table.limited.items()):
            click.echo(
                f"warning: ranking {model} on {task} from a {how} run (a subset of the items)",
                err=True,
            )
        return table
    for line in table.drop_limited():
        click.echo(
            f"note: left out {line}: a subset of the items; --include-limited ranks it", err=True
        )
    return table


def _plan_boards(
    table: Any, registry: Any, include_types: tuple[str, ...], missing: str, group_by: str
) -> Any:
    """The leaderboards to compute (one per suite and an overall one, see --group-by), after
    printing which tasks and blocks are left out; an error when there is none."""
    from seebench.leaderboard.boards import MIN_MODELS, MIN_TASKS, plan_boards
    from seebench.leaderboard.inputs import compared_tasks
    from seebench.stats.matrix import IncompleteMatrixError

    kept, dropped = compared_tasks(table, registry, include_types)
    for task, reason in dropped.items():
        click.echo(f"note: not ranking {task}: {reason}; --include-type adds it", err=True)
    selected = table.to_matrix(registry).select_tasks(kept)
    suites = {task: table.suite_of(task, registry) or "other" for task in selected.tasks}
    try:
        plan = plan_boards(selected, suites, missing, group_by)
    except IncompleteMatrixError as exc:
        raise SeebenchError(str(exc)) from None
    for line in plan.skipped:
        click.echo(f"note: {line}", err=True)
    if not plan.boards:
        types = ", ".join(sorted(set(selected.task_types))) or "none"
        raise SeebenchError(
            f"no leaderboard: one needs at least {MIN_MODELS} models with a score on each of at "
            f"least {MIN_TASKS} tasks (task types ranked: {types}; {len(dropped)} task(s) of "
            f"other types left out, see --include-type; --missing {missing})"
        )
    return plan


def _board_report(
    board: Any,
    table: Any,
    registry: Any,
    settings: Any,
    title: str,
    several: bool,
    view_site: str | None,
) -> Any:
    """The comparison report of one leaderboard, with its counts, groups and left-out notes."""
    from seebench.scoring.groups import collect_groups, matrix_group_scores
    from seebench.stats import compare_models

    heading = f"{title}: {board.name}" if board.name and several else title
    try:
        report = compare_models(
            board.matrix,
            settings,
            breakdown_matrix=board.breakdown,
            title=heading,
            sources=tuple(table.sources),
        )
    except ValueError as exc:
        raise SeebenchError(str(exc)) from None
    counts = table.counts_for(report.models, report.matrix.tasks)
    if counts:
        report.extra["counts"] = counts
    if view_site:
        report.extra["view_site"] = view_site
    groups = matrix_group_scores(collect_groups(registry), report.matrix)  # from suites
    if groups:
        report.extra["task_groups"] = groups
    limited = table.limited_for(report.models, report.matrix.tasks)
    if limited:  # ranked with --include-limited: every table says which rows
        report.extra["limited"] = limited
    left_out = [*board.left_out, *table.dropped]
    if left_out:
        report.extra["left_out"] = left_out
    return report


def _write_board(
    report: Any, board: Any, out_dir: Path, exporters: dict[str, Any], several: bool
) -> None:
    """Print one leaderboard's notes and summary line, and export it under ``out_dir``."""
    name = f"suite {board.name}" if board.name else "overall"
    prefix = f"{name}: " if several else ""
    for note in report.notes:
        click.echo(f"note: {prefix}{note}", err=True)
    for line in board.left_out:  # the --limit results dropped were named once, on reading
        click.echo(f"note: {prefix}left out {line}", err=True)
    click.echo(
        f"{prefix}{len(report.models)} models, {len(report.matrix.tasks)} tasks; "
        f"top: {report.models[0]}; tiers: {len(report.tiers)}",
        err=True,
    )
    where = out_dir / board.name if board.name else out_dir
    where.mkdir(parents=True, exist_ok=True)
    for export in exporters.values():
        for path in export(report, where):
            click.echo(str(path))


def _warn_unsandboxed(table: Any) -> None:
    for unit in table.unsandboxed:
        click.echo(
            f"warning: sandbox: none: {unit} ran model-written code on the host "
            "(--unsafe-host-exec), without the sandbox",
            err=True,
        )


def _exporters(formats: tuple[str, ...]) -> dict:
    """The exporter functions to run, by name, from the plugin registry."""
    from seebench.plugin_manager import get_registry

    registry = get_registry()
    names = list(dict.fromkeys(formats)) or list(registry.exporters)
    return {name: registry.exporter(name).load() for name in names}
