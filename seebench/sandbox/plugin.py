"""Built-in plugin: the ``sandbox`` command (``seebench sandbox check``)."""

from __future__ import annotations

from seebench.hookspecs import hookimpl


@hookimpl
def register_commands(cli) -> None:
    from seebench.cli.sandbox import sandbox_group

    cli.add_command(sandbox_group)
