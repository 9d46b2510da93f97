"""``seebench data``: fetch, import and check the data files of tasks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from seebench.cli.data_add import add
from seebench.cli.tasks import include_path_option, use_include_paths


def _tasks(names: tuple[str, ...]):
    from seebench.plugin_manager import get_task_index

    index = get_task_index()
    return index.select(",".join(names)) if names else index.select("all")


@click.group("data")
def data_group() -> None:
    """Manage the data cache ($SEEBENCH_HOME/data)."""


data_group.add_command(add)


@data_group.command("fetch")
@click.argument("tasks", nargs=-1)
@include_path_option
def fetch(tasks: tuple[str, ...], include_paths: tuple[Path, ...]) -> None:
    """Download missing data files of TASKS (default: all) and verify their sha256."""
    from seebench.data.manage import fetch_tasks

    use_include_paths(include_paths)
    failures = 0
    for source, error in fetch_tasks(_tasks(tasks)):
        if error:
            failures += 1
            click.echo(f"FAILED  {error}")
        else:
            click.echo(f"ok      {source.task}: {source.file_name}")
    sys.exit(1 if failures else 0)


@data_group.command("import")
@click.argument("directory", type=click.Path(path_type=Path))
def import_(directory: Path) -> None:
    """Copy files found under DIRECTORY by sha256 into the cache: task sources and the data
    files plugins register (such as the study's released chat log)."""
    from seebench.data.cache import data_dir
    from seebench.data.manage import import_directory
    from seebench.plugin_manager import get_registry

    data_files = get_registry().data_files.values()
    report = import_directory(directory, _tasks(()), data_files)
    for _, path in report.imported:
        replaced = " (replaced a damaged cached copy)" if path in report.replaced else ""
        click.echo(f"imported {path}{replaced}")
    click.echo(
        f"{len(report.imported)} imported, {report.already} already cached, "
        f"{report.scanned} files scanned; cache: {data_dir()}"
    )


@data_group.command("status")
@click.argument("tasks", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@include_path_option
def status(tasks: tuple[str, ...], as_json: bool, include_paths: tuple[Path, ...]) -> None:
    """Per task: files present/missing, prepared rows (vs the paper), split sizes, label
    counts, and where to get missing data."""
    from seebench.data.manage import task_status
    from seebench.plugin_manager import get_registry

    use_include_paths(include_paths)
    registry = get_registry()
    reports = [task_status(t, registry) for t in _tasks(tasks)]
    if as_json:
        click.echo(json.dumps(reports, indent=2, default=str))
        return
    for report in reports:
        for line in format_status(report):
            click.echo(line)
    available = sum(1 for r in reports if r["rows"] is not None)
    click.echo(f"{available} of {len(reports)} tasks have their data")


def format_status(report: dict) -> list[str]:
    """The human-readable lines of one task's status."""
    data_files = [f for f in report["files"] if f["role"] == "data"]
    present = sum(f["present"] for f in data_files)
    head = f"{report['task']:<24} {present}/{len(data_files)} files"
    if report["error"]:
        return [f"{head}  ERROR {report['error']}"]
    if report["rows"] is None:
        damaged = any(f.get("damaged") for f in report["files"])
        lines = [
            f"{head}  "
            + (
                "damaged (eval fails until it is replaced)"
                if damaged
                else "missing (skipped by eval)"
            )
        ]
        for f in report["files"]:
            if not f["present"] and f.get("damaged"):
                lines.append(f"    {f['damaged']}")
            elif not f["present"]:
                pinned = "" if f["pinned"] else " [sha256 not pinned: not reachable when written]"
                where = f.get("where") or f["url"] or "no upstream url"
                lines.append(f"    {f['file']}: {where}{pinned}{_HINTS.get(f.get('kind'), '')}")
                if f.get("homepage") and not f["pinned"]:
                    lines.append(f"      dataset home: {f['homepage']}")
        return lines
    rows = f"{report['rows']} rows"
    if report["reference_rows"] is not None:
        diff = report["rows_vs_reference"]
        rows += (
            " (= the paper)" if diff == 0 else f" (paper: {report['reference_rows']}, {diff:+d})"
        )
    lines = [f"{head}  {rows}"]
    if report["splits"]:
        sizes = " / ".join(f"{report['splits'][k]}" for k in ("train", "validation", "test"))
        lines.append(f"    split: {report['split_method']}: train/validation/test {sizes}")
    for f in report["files"]:
        if f["role"] == "split_file" and not f["present"]:
            lines.append(f"    split file {f['file']} missing: {f['url']}")
        elif f.get("kind") in _HINTS:
            lines.append(f"    source: {f['where']}")
    lines.append(f"    labels: {_compact(report['labels'])}")
    if report["rows_vs_reference"] and report.get("notes"):
        lines.append(f"    why: {report['notes']}")
    return lines


#: What to do about a missing source of a kind that is not a downloadable file.
_HINTS = {
    "hf": " (a local directory must exist; a Hub dataset is loaded by 'seebench data fetch' or eval when online)",
    "package": " (install the Python package that ships it)",
}


def _compact(labels: dict | None) -> str:
    if not labels:
        return "-"
    return ", ".join(f"{k} {v}" for k, v in labels.items())
