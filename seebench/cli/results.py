"""``seebench results check`` (find every result a rerun would not trust, without
recomputing) and ``seebench results merge`` (join the results of shards)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from seebench.errors import SeebenchError


@click.group("results")
def results_group() -> None:
    """Inspect result directories written by ``seebench eval``."""


@results_group.command("check")
@click.argument("directory", type=click.Path(path_type=Path))
def check(directory: Path) -> None:
    """Check every result under DIRECTORY: JSON, schema version and schema, samples file
    (present, one valid line per sample, recorded sha256). Prints one line per problem and
    exits with 1 if some result is broken; nothing is recomputed or changed. Samples files
    without a result (left by an interrupted run) are listed as ORPHAN."""
    from seebench.results.verify import verify_result
    from seebench.secrets import scrub

    if not directory.is_dir():
        raise SeebenchError(f"{directory}: not a directory")
    counts = {"ok": 0, "not done": 0, "untrusted": 0}
    results = _visible(directory, "*.json")
    claimed: set[Path] = set()
    for path in results:
        outcome = verify_result(path)
        if outcome.problem:
            counts["untrusted"] += 1
            click.echo(f"BROKEN    {scrub(outcome.problem)}")
            claimed.add(path.with_name(f"{path.stem}.samples.jsonl"))
            continue
        result = outcome.result or {}
        claimed.add(path.parent / str(result.get("samples_file") or f"{path.stem}.samples.jsonl"))
        if result.get("status") in ("ok", "not_applicable"):
            counts["ok"] += 1
        else:
            counts["not done"] += 1
            reason = str(result.get("reason") or "").splitlines()[0:1]
            click.echo(f"NOT DONE  {path}: status {result.get('status')}: {''.join(reason)}")
    orphans = [p for p in _visible(directory, "*.samples.jsonl") if p not in claimed]
    for orphan in orphans:
        click.echo(f"ORPHAN    {orphan}: samples file without a result")
    click.echo(
        f"{len(results)} result files: {counts['ok']} ok, {counts['untrusted']} broken, "
        f"{counts['not done']} not done (failed or skipped); {len(orphans)} orphan samples files"
    )
    sys.exit(1 if counts["untrusted"] else 0)


@results_group.command("merge")
@click.argument("directories", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out", required=True, type=click.Path(path_type=Path), help="The merged results directory."
)
def merge(directories: tuple[Path, ...], out: Path) -> None:
    """Merge the results of shards (DIRECTORIES) into --out, after verifying every one.
    Refuses (and writes nothing) when a result is broken or one unit has two different
    results; prints one line per problem."""
    from seebench.results.merge import merge_results
    from seebench.secrets import scrub

    report = merge_results(list(directories), out)
    for problem in report.problems:
        click.echo(scrub(problem))
    if report.problems:
        click.echo(f"nothing merged: {len(report.problems)} problem(s)")
        sys.exit(1)
    left = (
        f", {len(report.skipped)} link(s) or special file(s) left behind" if report.skipped else ""
    )
    click.echo(
        f"merged into {out}: {report.copied} result(s) copied, {report.kept} already there, "
        f"{report.identical} identical duplicate(s){left}"
    )


def _visible(directory: Path, pattern: str) -> list[Path]:
    """Files matching ``pattern`` under ``directory``, outside hidden folders (work dirs) and
    outside units' ``<task>.artifacts/`` folders (scorer logs and per-case files, not results)."""
    return sorted(
        p
        for p in directory.rglob(pattern)
        if not any(
            part.startswith(".") or part.endswith(".artifacts")
            for part in p.relative_to(directory).parts[:-1]
        )
        and not p.name.startswith(".")
    )
