"""Built-in plugin: the ``compare`` command and the leaderboard exporters.

Importing this module is cheap: the statistics and plotting code load only when used.
"""

from __future__ import annotations

from collections.abc import Callable

from seebench.hookspecs import hookimpl


@hookimpl
def register_commands(cli) -> None:
    from seebench.cli.compare import compare_command
    from seebench.cli.leaderboard import leaderboard_group, reproduce_command

    cli.add_command(compare_command)
    cli.add_command(leaderboard_group)
    cli.add_command(reproduce_command)


@hookimpl
def register_exporters(register: Callable[..., None]) -> None:
    from seebench.leaderboard import EXPORTERS

    for name, (path, description) in EXPORTERS.items():
        register(name, path, description=description)
