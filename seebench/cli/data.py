"""``seebench data``: fetch, import and check the data files of tasks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click


def _tasks(names: tuple[str, ...]):
    from seebench.tasks.index import get_task_index

    index = get_task_index()
    return index.select(",".join(names)) if names else index.select("all")


@click.group("data")
def data_group() -> None:
    """Manage the data cache ($SEEBENCH_HOME/data)."""


@data_group.command("fetch")
@click.argument("tasks", nargs=-1)
def fetch(tasks: tuple[str, ...]) -> None:
    """Download missing data files of TASKS (default: all) and verify their sha256."""
    from seebench.data.manage import fetch_tasks

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
    """Copy files found under DIRECTORY by sha256 into the cache."""
    from seebench.data.cache import data_dir
    from seebench.data.manage import import_directory

    report = import_directory(directory, _tasks(()))
    for _, path in report.imported:
        click.echo(f"imported {path}")
    click.echo(
        f"{len(report.imported)} imported, {report.already} already cached, "
        f"{report.scanned} files scanned; cache: {data_dir()}"
    )


@data_group.command("status")
@click.argument("tasks", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def status(tasks: tuple[str, ...], as_json: bool) -> None:
    """Per task: files present/missing, prepared rows, label counts, where to get missing data."""
    from seebench.data.manage import task_status
    from seebench.plugin_manager import get_registry

    registry = get_registry()
    reports = [task_status(t, registry) for t in _tasks(tasks)]
    if as_json:
        click.echo(json.dumps(reports, indent=2, default=str))
        return
    for report in reports:
        present = sum(f["present"] for f in report["files"])
        head = f"{report['task']:<28} {present}/{len(report['files'])} files"
        if report["error"]:
            click.echo(f"{head}  ERROR {report['error']}")
        elif report["rows"] is not None:
            click.echo(f"{head}  {report['rows']} rows  {report['labels']}")
        else:
            click.echo(f"{head}  missing")
            for f in report["files"]:
                if not f["present"]:
                    click.echo(f"    {f['file']}: {f['url'] or 'no upstream url'}")
