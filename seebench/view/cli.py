"""``seebench view``: browse results down to one sample, or export them as a static site."""

from __future__ import annotations

from pathlib import Path

import click

from seebench.errors import SeebenchError


@click.command("view")
@click.argument("inputs", nargs=-1, type=click.Path(path_type=Path))
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8765, show_default=True)
@click.option(
    "--export",
    "export_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Write the pages as a static site to this folder instead of serving them.",
)
@click.option(
    "--groups",
    "group_files",
    multiple=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="A YAML file of task groups (besides those the suites declare). Repeatable.",
)
def view_command(
    inputs: tuple[Path, ...],
    host: str,
    port: int,
    export_dir: Path | None,
    group_files: tuple[Path, ...],
) -> None:
    """Browse RESULTS_DIR... (default: results) in a local web app, read-only.

    Each input is a results folder of `seebench eval` (runs, samples, artifacts, compare two
    models item by item) or a score CSV as `seebench compare` takes (leaderboard only).
    """
    from seebench.extras import require
    from seebench.plugin_manager import get_registry

    for module in ("jinja2", "markupsafe") if export_dir else ("jinja2", "starlette", "uvicorn"):
        require(module, "seebench view")
    from seebench.view.catalog import Catalog
    from seebench.view.site import Site

    inputs = inputs or (Path("results"),)
    for path in inputs:
        if not path.exists():
            raise SeebenchError(f"{path}: no such results folder or CSV file")
        if path.is_file() and path.suffix.lower() != ".csv":
            raise SeebenchError(f"{path}: expected a results folder or a .csv file of scores")
    folders = [p for p in inputs if p.is_dir()]
    csvs = tuple(p for p in inputs if p.is_file())
    registry = get_registry()
    catalog = Catalog(folders)
    units = catalog.refresh()
    groups = _groups(registry, group_files)
    damaged = sum(1 for u in units if u.problem)
    click.echo(
        f"{len(units)} unit(s) in {len(folders)} folder(s)"
        + (f", {damaged} damaged" if damaged else "")
        + (f"; {len(csvs)} score CSV(s)" if csvs else ""),
        err=True,
    )
    if export_dir is not None:
        from seebench.view.export import export_site

        site = Site(catalog, registry, mode="export", csv_inputs=csvs, groups=groups, **_jobs())
        written = export_site(site, export_dir)
        click.echo(f"{written} files written; open {export_dir / 'index.html'}")
        return
    from seebench.view.server import serve

    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(
            f"warning: listening on {host}: anyone who can reach it can read these results",
            err=True,
        )
    site = Site(catalog, registry, mode="serve", csv_inputs=csvs, groups=groups, **_jobs())
    click.echo(f"serving on http://{host}:{port}/ (Ctrl-C stops)", err=True)
    serve(site, host, port)


def _groups(registry, group_files: tuple[Path, ...]):
    """The task groups the suites declare plus those of ``group_files``."""
    from seebench.scoring.groups import collect_groups

    return collect_groups(registry, group_files)


def _jobs() -> dict:
    """What the site runs with the plugin registry (bound here, the composition root): the
    inputs looked up in a task's data, and the leaderboard computed in a process of its own."""
    from seebench.view.inputs import InputLookup

    return {"inputs": InputLookup(task_inputs), "board_job": leaderboard_job}


def task_inputs(task: str, seed: int) -> dict:
    """Every item of ``task`` by input hash (picklable: run in a process of its own)."""
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.view.inputs import inputs_of_task

    return inputs_of_task(get_task_index().get(task), get_registry(), seed)


def leaderboard_job(units: list, csv_inputs: tuple[Path, ...], groups) -> dict:
    """The leaderboard page's context with this process's registry (picklable)."""
    from seebench.plugin_manager import get_registry
    from seebench.view.leaderboard import board

    return board(units, csv_inputs, groups, get_registry())
