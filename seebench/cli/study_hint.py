"""``seebench study`` when the study app is not installed: one line saying how to install it.

The study app (a web server, its JavaScript bundle and the study analysis) is its own
distribution, ``seebench-study`` (``plugins/seebench-study`` in the repository), which adds the
real ``study`` command group through the ``seebench`` entry point group.
"""

from __future__ import annotations

import importlib.util

import click

from seebench.errors import SeebenchError
from seebench.hookspecs import hookimpl

INSTALL_HINT = (
    "seebench study needs the seebench-study distribution: pip install seebench-study "
    "(in a seebench checkout: pip install -e plugins/seebench-study)"
)


@click.command(
    "study",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    add_help_option=False,
)
def study_missing() -> None:
    """Human studies of coding assistants (needs: pip install seebench-study)."""
    raise SeebenchError(INSTALL_HINT)


@hookimpl(trylast=True)
def register_commands(cli: click.Group) -> None:
    if importlib.util.find_spec("seebench_study") is None and "study" not in cli.commands:
        cli.add_command(study_missing)
