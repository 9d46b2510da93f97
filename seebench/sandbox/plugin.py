"""Built-in plugin: the ``sandbox`` command (``seebench sandbox check``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import hookimpl

if TYPE_CHECKING:
    import click


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench.cli.sandbox import sandbox_group

    cli.add_command(sandbox_group)
