"""The viewer as a plugin: adds ``seebench view``. Disable it with
``SEEBENCH_DISABLE_PLUGINS=view``."""

from __future__ import annotations

from seebench.hookspecs import hookimpl


@hookimpl
def register_commands(cli) -> None:
    from seebench.view.cli import view_command

    cli.add_command(view_command)
