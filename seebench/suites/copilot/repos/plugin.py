"""The repository environments' registrations, called by the ``copilot`` suite plugin
(a sub-plugin of :mod:`seebench.suites.copilot.plugin`): the ``seebench copilot envs`` command."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import hookimpl

if TYPE_CHECKING:
    import click


@hookimpl
def register_commands(cli: click.Group) -> None:
    from seebench.suites.copilot.repos.commands import add_commands

    add_commands(cli)
