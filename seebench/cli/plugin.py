"""Built-in CLI commands: ``tasks``, ``plugins``, ``eval``, ``score``, ``data`` and ``results``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import hookimpl

if TYPE_CHECKING:
    import click


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench.cli.data import data_group
    from seebench.cli.eval import eval_command
    from seebench.cli.new import new_group
    from seebench.cli.plugins import plugins_command
    from seebench.cli.results import results_group
    from seebench.cli.results_push import push_command
    from seebench.cli.score import score_command
    from seebench.cli.tasks import tasks_group

    for command in (
        tasks_group,
        plugins_command,
        eval_command,
        score_command,
        data_group,
        results_group,
        new_group,
    ):
        cli.add_command(command)
    results_group.add_command(push_command)
