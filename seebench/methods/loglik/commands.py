"""``seebench loglik decide``: re-decide saved ``loglik`` results from their stored option
log-likelihoods (raw, per-character or calibrated), without the model."""

from __future__ import annotations

from pathlib import Path

import click

from seebench.methods.loglik.decide import SCORINGS


@click.group("loglik")
def loglik_group() -> None:
    """Log-likelihood (loglik) results: re-decide them without the model."""


@loglik_group.command("decide")
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--by",
    type=click.Choice(SCORINGS),
    default="norm",
    show_default=True,
    help="raw log-likelihood, per character (norm), or calibrated (needs -o calibrate=true).",
)
def decide_command(results: tuple[Path, ...], by: str) -> None:
    """Print the task's metrics of every loglik result under RESULTS decided ``--by``."""
    from seebench.errors import SeebenchError
    from seebench.methods.loglik.redecide import redecide
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.runner.rescore import result_files

    registry, index = get_registry(), get_task_index()
    for path in result_files(results):
        try:
            metrics = redecide(path, by, registry, index)
        except SeebenchError as exc:
            click.echo(f"{path}: {exc}", err=True)
            continue
        if metrics is None:
            continue
        shown = ", ".join(f"{k} {v:.4f}" for k, v in metrics.items())
        click.echo(f"{path}: {by}: {shown}")
