"""The repository environments' registrations, called by the ``copilot`` suite plugin
(:mod:`seebench.builtin.copilot`): the ``seebench copilot envs`` command."""

from __future__ import annotations

from typing import Any


def register_commands(cli: Any) -> None:
    from seebench.suites.copilot.repos.commands import add_commands

    add_commands(cli)
