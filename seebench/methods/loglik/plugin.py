"""Registers the ``loglik`` method and the ``seebench loglik decide`` command."""

from __future__ import annotations

from seebench.hookspecs import hookimpl
from seebench.tasks.types import LABEL, LABEL_SET


@hookimpl
def register_methods(register) -> None:
    register(
        "loglik",
        "seebench.methods.loglik.method:LoglikMethod",
        description="Score every label as the prompt's continuation (log-likelihood, as "
        "lm-eval's multiple choice); predict the most likely. Never invalid.",
        target_kinds=(LABEL, LABEL_SET),
    )


@hookimpl
def register_commands(cli) -> None:
    from seebench.methods.loglik.commands import loglik_group

    cli.add_command(loglik_group)
