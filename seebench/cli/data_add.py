"""``seebench data add TASK FILE``: record a user-supplied file for an unpinned source."""

from __future__ import annotations

from pathlib import Path

import click

from seebench.cli.tasks import include_path_option, use_include_paths


@click.command("add")
@click.argument("task")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--source", "source_name", default=None, help="The source, when TASK has several.")
@click.option("--replace", is_flag=True, help="Record FILE although another hash was recorded.")
@include_path_option
def add(
    task: str, file: Path, source_name: str | None, replace: bool, include_paths: tuple[Path, ...]
) -> None:
    """Store FILE as TASK's data file whose checksum the task does not pin, and record its
    sha256 (trust on first use). Results that use it record that hash and carry a warning."""
    from seebench.data.sources import task_sources
    from seebench.data.user_files import add_user_file, record_path
    from seebench.plugin_manager import get_task_index

    use_include_paths(include_paths)
    spec = get_task_index().get(task)
    source, digest, first = add_user_file(spec, file, task_sources(spec), source_name, replace)
    what = "recorded" if first else "kept"
    click.echo(
        f"{what} {file} for {spec.name} ({source.name}): sha256 {digest} (trust on first use; "
        f"{record_path()})"
    )
    click.echo(
        "warning: the task pins no checksum for this file; every result that uses it says so",
        err=True,
    )
