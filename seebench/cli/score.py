"""``seebench score``: score or re-score saved predictions without calling the model."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command("score")
@click.argument("results", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--scorer", help="Score with this registered scorer instead of the task's scorers.")
@click.option(
    "-o", "--option", "options", multiple=True, help="Scorer option KEY=VALUE (with --scorer)."
)
@click.option(
    "--bootstrap",
    type=click.IntRange(min=0),
    help="Bootstrap resamples for intervals (default 1000).",
)
@click.option(
    "--unsafe-host-exec",
    is_flag=True,
    help="Run code-executing scorers on the host with rlimits only, NO sandbox "
    "('sandbox: none'); only for code you trust.",
)
def score_command(results, scorer, options, bootstrap, unsafe_host_exec) -> None:
    """Score the predictions saved under RESULTS (files or folders); the model is not called."""
    from seebench.cli.eval import _parse_options
    from seebench.errors import SeebenchError
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.runner.rescore import rescore, result_files

    if options and not scorer:
        raise SeebenchError("-o needs --scorer (the scorer whose options these are)")
    registry, index = get_registry(), get_task_index()
    failed = 0
    for path in result_files(results):
        try:
            done = rescore(
                path,
                registry,
                index,
                scorer=scorer,
                options=_parse_options(options),
                bootstrap=bootstrap,
                run_options={"unsafe_host_exec": True} if unsafe_host_exec else None,
            )
        except SeebenchError as exc:
            failed += 1
            click.echo(f"{path}: not scored: {exc}", err=True)
            continue
        if done is None:
            click.echo(f"{path}: skipped: the unit has no saved predictions to score")
            continue
        if not done.metrics:
            click.echo(f"{path}: skipped: {done.reason}")
            continue
        shown = ", ".join(f"{k} {v:.4f}" for k, v in done.metrics.items())
        fresh = sum(done.computed.values())
        click.echo(f"{path}: {shown} ({fresh} score(s) computed, the rest from the score cache)")
    sys.exit(1 if failed else 0)
