"""Registers the ``loglik`` method and the ``seebench loglik decide`` command."""

from __future__ import annotations

from typing import TYPE_CHECKING

from seebench.hookspecs import RegisterMethod, hookimpl
from seebench.tasks.types import LABEL, LABEL_SET, RATING

if TYPE_CHECKING:
    import click


@hookimpl
def register_methods(register: RegisterMethod) -> None:
    register(
        "loglik",
        "seebench.methods.loglik.method:LoglikMethod",
        description="Score every label (or point of a rating scale) as the prompt's "
        "continuation (log-likelihood, as lm-eval's multiple choice); predict the most likely. "
        "Never invalid.",
        target_kinds=(LABEL, LABEL_SET, RATING),
    )


@hookimpl
def register_commands(cli: click.Group) -> None:
    import click

    @cli.group("loglik")
    def loglik_group() -> None:
        """Log-likelihood (loglik) results: re-decide them without the model."""

    @loglik_group.command("decide")
    @click.argument("results", nargs=-1, required=True, type=click.Path())
    @click.option(
        "--by",
        type=click.Choice(("raw", "norm", "calibrated")),
        default="norm",
        show_default=True,
        help="raw log-likelihood, per character (norm), or calibrated (-o calibrate=true).",
    )
    def decide_command(results: tuple[str, ...], by: str) -> None:
        """Print the task's metrics of every loglik result under RESULTS decided --by."""
        _decide(results, by)


def _decide(results: tuple[str, ...], by: str) -> None:
    from pathlib import Path

    import click

    from seebench.errors import SeebenchError
    from seebench.methods.loglik.redecide import redecide
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.runner.rescore import result_files

    registry, index = get_registry(), get_task_index()
    for path in result_files(Path(r) for r in results):
        try:
            metrics = redecide(path, by, registry, index)
        except SeebenchError as exc:
            click.echo(f"{path}: {exc}", err=True)
            continue
        if metrics is not None:
            shown = ", ".join(f"{k} {v:.4f}" for k, v in metrics.items())
            click.echo(f"{path}: {by}: {shown}")
