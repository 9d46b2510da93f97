"""``seebench eval``: run a model on tasks and write resumable results."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from seebench.errors import SeebenchError


def _parse_options(values: tuple[str, ...]) -> dict:
    import yaml

    options = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise SeebenchError(f"--option {item!r}: expected KEY=VALUE")
        options[key] = yaml.safe_load(raw)
    return options


@click.command("eval")
@click.option("--model", required=True, help="Model spec: a registered name, hf:PATH, openai:NAME, ...")
@click.option("--tasks", required=True, help="all, a suite, or comma-separated task names.")
@click.option("--method", help="Evaluation method (default: the model's default).")
@click.option("--output", type=click.Path(path_type=Path), default=Path("results"), show_default=True,
              help="Results directory.")
@click.option("--limit", type=click.IntRange(min=1), help="Evaluate at most N test samples per task.")
@click.option("--seed", type=int, default=42, show_default=True, help="Seed for splits, shots and methods.")
@click.option("--force", is_flag=True, help="Recompute units that are already done.")
@click.option("--shard", help="Run only shard i of n (1-based), e.g. 2/4.")
@click.option("-o", "--option", "options", multiple=True, help="Method option KEY=VALUE (repeatable).")
@click.option("--no-progress", is_flag=True, help="Do not draw the progress bar.")
@click.option("--predict-only", is_flag=True, help="Write predictions without scoring (see 'seebench score').")
@click.option("--bootstrap", type=click.IntRange(min=0), default=1000, show_default=True,
              help="Bootstrap resamples of the test items for each metric's 95% interval (0: none).")
@click.option("--peft", help="Fine-tuning: parameter-efficient method (lora); same as -o peft=...")
@click.option("--deepspeed", help="Fine-tuning: DeepSpeed ZeRO stage (zero2); same as -o deepspeed=...")
def eval_command(model, tasks, method, output, limit, seed, force, shard, options, no_progress,
                 predict_only, bootstrap, peft, deepspeed) -> None:
    """Evaluate MODEL on TASKS; completed units are skipped unless --force."""

    from seebench.runner import EvalConfig, run_eval
    from seebench.runner.progress import summary_table, table_console
    from seebench.runner.runner import parse_shard

    config = EvalConfig(
        model=model, tasks=tasks, method=method, output=output, limit=limit, seed=seed,
        force=force, shard=parse_shard(shard) if shard else None,
        method_options={**_parse_options(options),
                        **{k: v for k, v in (("peft", peft), ("deepspeed", deepspeed)) if v}},
        progress=not no_progress, predict_only=predict_only, bootstrap=bootstrap,
    )
    outcomes = run_eval(config)
    table_console(stderr=False).print(summary_table(outcomes))
    failed = [o for o in outcomes if o.status == "failed"]
    click.echo(f"results in {output}" + (f"; {len(failed)} unit(s) failed" if failed else ""))
    sys.exit(1 if failed else 0)
