"""``seebench eval``: run a model on tasks and write resumable results."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from seebench.cli.run_options import parse_sample_ids, run_extras, run_options
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
    "--samples",
    "sample_ids",
    help="Evaluate only the test items with these ids: ID,ID,... or a file of ids, one a line "
    "(a partial result, like --limit's).",
)
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
    sample_ids,
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

    from seebench.cli.sweep import run_sweep_cli
    from seebench.executors.plan import parse_models
    from seebench.executors.shard import resolve_shard
    from seebench.runner.config import EvalConfig

    if limit is not None and limit < 1:
        raise SeebenchError(f"--limit {limit}: must be at least 1")
    samples = parse_sample_ids(sample_ids) if sample_ids is not None else None
    if samples is not None and limit is not None:
        raise SeebenchError("--samples and --limit: give one of them")
    from seebench.cli.quiet import quiet_libraries

    quiet_libraries(progress=not no_progress)
    extras = run_extras()  # --config, budgets, trackers
    models = parse_models(model, sweep.get("models_file"))
    flags = {"peft": peft, "deepspeed": deepspeed, "unsafe_host_exec": unsafe_host_exec}
    config = EvalConfig(
        model=models[0],
        tasks=tasks,
        method=method,
        output=output,
        limit=limit,
        samples=samples,
        seed=seed,
        force=force,
        shard=resolve_shard(shard) if shard else None,
        method_options={
            **extras.method_options,
            **_parse_options(options),
            **{k: v for k, v in flags.items() if v},
        },
        progress=not no_progress,
        predict_only=predict_only,
        bootstrap=bootstrap,
        budget=extras.budget,
    )
    check_output_dir(output)
    code = run_sweep_cli(config, models, sweep, include_paths, extras)
    _exit(code)


def _exit(code: int) -> None:
    """End the command with ``code``; without waiting for units abandoned at their time limit
    (they may wait on a server that never answers), when there are any."""
    import os

    from seebench.runner.budget import abandoned_units

    if abandoned_units():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)
