"""Built-in plugin: the ``compare`` command and the leaderboard exporters.

Importing this module is cheap: the statistics and plotting code load only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import RegisterFunction, hookimpl

if TYPE_CHECKING:
    import click


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench.cli.compare import compare_command
    from seebench.cli.leaderboard import leaderboard_group, reproduce_command

    cli.add_command(compare_command)
    cli.add_command(leaderboard_group)
    cli.add_command(reproduce_command)


@hookimpl
def register_exporters(register: RegisterFunction) -> None:
    from seebench.leaderboard import EXPORTERS

    for name, (path, description) in EXPORTERS.items():
        register(name, path, description=description)
