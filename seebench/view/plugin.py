"""The viewer as a plugin: adds ``seebench view``. Disable it with
``SEEBENCH_DISABLE_PLUGINS=view``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import hookimpl

if TYPE_CHECKING:
    import click


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench.view.cli import view_command

    cli.add_command(view_command)
