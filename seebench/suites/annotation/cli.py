"""``seebench agreement``: the agreement analysis of ratings tasks, humans and model raters.

Human ratings come from the task data (``seebench data import``/``fetch`` first) or, when
results are given, from the gold targets in their samples files; every result of a ratings
task adds its model as a rater (its ``confidence`` feeds the replacement curves). The seeded
random rater is always added as the control.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.results.io import RESULT_MAX_BYTES
from seebench.results.samples import SAMPLES_MAX_BYTES


def _records(result_path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """A ratings-task result and its samples, or None when the file is something else."""
    try:
        result = json.loads(safe_files.read_text(result_path, RESULT_MAX_BYTES))
    except (OSError, ValueError):
        return None
    if (
        not isinstance(result, dict)
        or result.get("task", {}).get("type") != "ratings"
        or result.get("status") != "ok"
    ):
        return None
    samples = result_path.with_name(
        result.get("samples_file") or f"{result_path.stem}.samples.jsonl"
    )
    if not samples.is_file():
        raise SeebenchError(f"{result_path}: samples file {samples.name} not found")
    records = []
    text = safe_files.read_text(samples, SAMPLES_MAX_BYTES)  # one line naming it if not text
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise SeebenchError(f"{samples}: line {number}: invalid JSON ({exc.msg})") from None
    if not records or not _is_ratings_target(records[0].get("gold")):
        return None  # a result of another kind of task
    return result, records


def _is_ratings_target(gold: Any) -> bool:
    return isinstance(gold, dict) and {"ratings", "scale", "level"} <= set(gold)


def _ratings_tasks(selector: str) -> list[str]:
    from seebench.plugin_manager import get_task_index
    from seebench.suites.annotation.task_type import RatingsType

    return [
        t.name for t in get_task_index().select(selector) if isinstance(t.behaviour, RatingsType)
    ]


def collect_results(
    paths: list[Path],
) -> dict[str, list[tuple[dict[str, Any], list[dict[str, Any]]]]]:
    """Ratings-task results under ``paths`` (files or folders), grouped by task name."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.rglob("*.json") if not p.name.endswith(".samples.json"))
        elif path.is_file():
            files.append(path)
        else:
            raise SeebenchError(f"{path}: no such file or folder")
    by_task: dict[str, list[tuple[dict[str, Any], list[dict[str, Any]]]]] = {}
    for file in files:
        found = _records(file)
        if found is not None:
            by_task.setdefault(found[0]["task"]["name"], []).append(found)
    return by_task


def _human_data(task_name: str, runs: list[tuple[dict[str, Any], list[dict[str, Any]]]], seed: int):
    from seebench.suites.annotation.rows import data_from_records

    if runs:
        return data_from_records(runs[0][1])
    from seebench.data.dataset import load_task_data
    from seebench.plugin_manager import get_registry, get_task_index

    task = get_task_index().get(task_name)
    data = load_task_data(task, get_registry(), seed=seed)
    return data_from_records([{"id": s.id, "gold": s.target} for s in data.test])


@click.command("agreement")
@click.argument("results", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--tasks",
    "selector",
    default=None,
    help="Tasks (names, suites, comma-separated); default: those in RESULTS, else the annotation suite.",
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path),
    default=Path("agreement"),
    show_default=True,
    help="Output folder.",
)
@click.option(
    "--seed", default=0, show_default=True, help="Seed of the random rater, bands and curves."
)
@click.option(
    "--repetitions",
    default=100,
    show_default=True,
    help="Repetitions per point of the replacement curves.",
)
@click.option(
    "--band-repetitions", default=1000, show_default=True, help="Random halves for the human band."
)
def agreement_command(
    results: tuple[Path, ...],
    selector: str | None,
    out_dir: Path,
    seed: int,
    repetitions: int,
    band_repetitions: int,
) -> None:
    """Pairwise Krippendorff's alpha of every rater (humans, models, a random rater) per ratings
    task, at every admissible level; HH/HM/MM zones; replacement curves and effort saved."""
    from seebench.suites.annotation.analysis import ModelRater, analyse_task
    from seebench.suites.annotation.export import export_all, markdown

    by_task = collect_results(list(results))
    if selector:
        names = _ratings_tasks(selector)
    elif by_task:
        names = sorted(by_task)
    else:
        names = _ratings_tasks("annotation")
    if not names:
        raise click.ClickException("no ratings tasks selected")
    analyses, problems = [], []
    for name in names:
        runs = by_task.get(name, [])
        try:
            data = _human_data(name, runs, seed)
        except SeebenchError as exc:
            problems.append(f"{name}: skipped: {str(exc).splitlines()[0]}")
            continue
        shots = {
            r["id"] for _, records in runs for r in records if (r.get("extra") or {}).get("shot")
        }
        if shots:
            data = data.subset(i for i in data.item_ids if i not in shots)
        models = []
        for result, records in runs:
            ratings = {
                r["id"]: r["prediction"]
                for r in records
                if r.get("prediction") is not None and r["id"] not in shots
            }
            confidence = {
                r["id"]: r["confidence"]
                for r in records
                if r.get("confidence") is not None and r["id"] in ratings
            }
            label = f"{result['model']['id']}/{result['method']}"
            models.append(ModelRater(label, ratings, confidence or None))
        analysis = analyse_task(
            name,
            data,
            models,
            seed=seed,
            repetitions=repetitions,
            band_repetitions=band_repetitions,
        )
        if shots:
            analysis.problems.append(
                f"{name}: {len(shots)} few-shot example items left out of the analysis"
            )
        analyses.append(analysis)
    for problem in problems:
        click.echo(problem, err=True)
    if not analyses:
        raise click.ClickException("no task could be analysed")
    export_all(analyses, out_dir)
    click.echo(markdown(analyses))
    click.echo(f"written to {out_dir}/ (agreement.md, .tex, .csv, .json, .html, figures/)")
