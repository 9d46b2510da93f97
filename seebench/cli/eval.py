"""``seebench eval``: run a model on tasks and write resumable results."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from seebench.cli.run_options import run_extras, run_options
from seebench.cli.sweep import sweep_options
from seebench.cli.tasks import include_path_option, use_include_paths
from seebench.errors import SeebenchError


def _parse_options(values: tuple[str, ...]) -> dict:
    import yaml

    options = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise SeebenchError(f"--option {item!r}: expected KEY=VALUE")
        try:
            options[key] = yaml.safe_load(raw)
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise SeebenchError(
                f"--option {item!r}: the value is not valid YAML ({problem})"
            ) from None
    return options


def check_output_dir(output: Path) -> None:
    """Raise a one-line error unless ``output`` is (or can be made) a writable directory."""
    import tempfile

    try:
        output.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=output, prefix=".seebench-write-test-"):
            pass
    except FileExistsError:
        raise SeebenchError(f"--output {output}: is a file, not a directory") from None
    except NotADirectoryError:
        raise SeebenchError(
            f"--output {output}: a parent of it is a file, not a directory"
        ) from None
    except OSError as exc:
        raise SeebenchError(
            f"--output {output}: cannot write there: {exc.strerror or exc}"
        ) from None


def _interrupted(output: Path, interrupted) -> str:
    """What Ctrl-C kept, and how to go on, in one line."""
    kept = [o for o in interrupted.outcomes if o.status in ("ok", "cached", "not_applicable")]
    return (
        f"interrupted during {interrupted.task!r}: {len(kept)} completed unit(s) are kept in "
        f"{output}, nothing of {interrupted.task!r} was written; run the same command again to "
        f"resume"
    )


@click.command("eval")
@click.option(
    "--model",
    help="Model spec: a registered name, hf:PATH, openai:NAME, ...; several: A,B,C (a sweep).",
)
@click.option("--tasks", required=True, help="all, a suite, or comma-separated task names.")
@click.option("--method", help="Evaluation method (default: the model's default).")
@click.option(
    "--output",
    type=click.Path(path_type=Path),
    default=Path("results"),
    show_default=True,
    help="Results directory.",
)
@click.option("--limit", type=int, help="Evaluate at most N test samples per task (N >= 1).")
@click.option(
    "--seed", type=int, default=42, show_default=True, help="Seed for splits, shots and methods."
)
@click.option("--force", is_flag=True, help="Recompute units that are already done.")
@click.option(
    "--shard",
    help="Run only shard i of n (1-based), e.g. 2/4; auto/n takes i from SLURM_ARRAY_TASK_ID "
    "or JOB_COMPLETION_INDEX.",
)
@click.option(
    "-o", "--option", "options", multiple=True, help="Method option KEY=VALUE (repeatable)."
)
@click.option("--no-progress", is_flag=True, help="Do not draw the progress bar.")
@click.option(
    "--predict-only", is_flag=True, help="Write predictions without scoring (see 'seebench score')."
)
@click.option(
    "--bootstrap",
    type=click.IntRange(min=0),
    default=1000,
    show_default=True,
    help="Bootstrap resamples of the test items for each metric's 95% interval (0: none).",
)
@click.option("--peft", help="Fine-tuning: parameter-efficient method (lora); same as -o peft=...")
@click.option(
    "--deepspeed", help="Fine-tuning: DeepSpeed ZeRO stage (zero2); same as -o deepspeed=..."
)
@click.option(
    "--unsafe-host-exec",
    is_flag=True,
    help="Run model-written code on the host with rlimits only, NO sandbox (results say "
    "'sandbox: none'); only for code you trust.",
)
@include_path_option
@sweep_options
@run_options
def eval_command(
    model,
    tasks,
    method,
    output,
    limit,
    seed,
    force,
    shard,
    options,
    no_progress,
    predict_only,
    bootstrap,
    peft,
    deepspeed,
    unsafe_host_exec,
    include_paths,
    **sweep,
) -> None:
    """Evaluate MODEL on TASKS; completed units are skipped unless --force."""
    use_include_paths(include_paths)

    from seebench.cli.run_options import run_session
    from seebench.executors.plan import parse_models
    from seebench.executors.shard import resolve_shard
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.runner import EvalConfig, RunInterrupted, run_eval
    from seebench.runner.budget import BudgetExhausted, stop_message
    from seebench.runner.progress import summary_table, table_console

    if limit is not None and limit < 1:
        raise SeebenchError(f"--limit {limit}: must be at least 1")
    from seebench.cli.quiet import quiet_libraries

    quiet_libraries(progress=not no_progress)
    extras = run_extras()  # --config, budgets, trackers
    models = parse_models(model, sweep.get("models_file"))
    config = EvalConfig(
        model=models[0],
        tasks=tasks,
        method=method,
        output=output,
        limit=limit,
        seed=seed,
        force=force,
        shard=resolve_shard(shard) if shard else None,
        method_options={
            **extras.method_options,
            **_parse_options(options),
            **{
                k: v
                for k, v in (
                    ("peft", peft),
                    ("deepspeed", deepspeed),
                    ("unsafe_host_exec", unsafe_host_exec),
                )
                if v
            },
        },
        progress=not no_progress,
        predict_only=predict_only,
        bootstrap=bootstrap,
        budget=extras.budget,
    )
    check_output_dir(output)
    from seebench.cli.sweep import run_sweep_cli, wants_sweep

    if wants_sweep(models, sweep):
        with run_session(config, extras):
            code = run_sweep_cli(config, models, sweep, include_paths)
        sys.exit(code)
    try:
        with run_session(config, extras):
            outcomes = run_eval(config, get_registry(), get_task_index())
    except RunInterrupted as interrupted:
        click.echo(_interrupted(output, interrupted), err=True)
        sys.exit(130)
    except BudgetExhausted as stop:
        table_console(stderr=False).print(summary_table(stop.outcomes))
        click.echo(stop_message(stop, output), err=True)
        sys.exit(3)
    table_console(stderr=False).print(summary_table(outcomes))
    from seebench.plugin_manager import get_registry
    from seebench.scoring.groups import report_groups

    report_groups(get_registry(), outcomes, output, table_console(stderr=False))
    failed = [o for o in outcomes if o.status == "failed"]
    click.echo(
        f"results in {output}/ (MODEL/METHOD/TASK.json, samples beside each)"
        + (f"; {len(failed)} unit(s) failed" if failed else "")
        + f"; browse them with: seebench view {output}"
    )
    sys.exit(1 if failed else 0)
