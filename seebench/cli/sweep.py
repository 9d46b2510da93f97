"""The sweep options of ``seebench eval`` (several models, executors, retries, event log) and
the code that runs a sweep from the command line."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from seebench.cli.run_options import RunExtras, run_option_value
from seebench.errors import SeebenchError

#: ``seebench eval`` options that a rerun command of failed units never repeats.
_NOT_REPEATED = (
    "model",
    "models_file",
    "tasks",
    "method",
    "shard",
    "force",
    "no_progress",
    "dry_run",
)


#: the sweep options of ``seebench eval``, in the order ``--help`` lists them
_SWEEP_OPTIONS = [
    click.option(
        "--models-file",
        type=click.Path(path_type=Path, dir_okay=False),
        help="A file with one model spec a line (joins --model).",
    ),
    click.option(
        "--executor",
        default="local",
        show_default=True,
        help="Where units run: local (this machine) or ray (a Ray cluster); plugins add more.",
    ),
    click.option(
        "--workers",
        type=click.IntRange(min=1),
        default=1,
        show_default=True,
        help="Local executor: units at once, each in its own process (1: serial).",
    ),
    click.option(
        "--ray-address",
        help="Ray executor: the cluster to join (default $RAY_ADDRESS, else a local Ray).",
    ),
    click.option(
        "--retries",
        type=click.IntRange(min=0),
        default=2,
        show_default=True,
        help="More attempts for a unit that failed with a transient error (a lost "
        "worker, a server down, out of memory); other failures are not retried.",
    ),
    click.option(
        "--retry-backoff",
        type=click.FloatRange(min=0),
        default=2.0,
        show_default=True,
        help="Seconds before the first retry (doubled for each further one).",
    ),
    click.option(
        "--resource",
        "resources",
        multiple=True,
        help="Logical resources of this machine, KEY=N (cpu, gpu, sandbox; repeatable), "
        "for the local executor or a local Ray.",
    ),
    click.option(
        "--plan",
        "dry_run",
        is_flag=True,
        help="Dry run: list what each unit would do (run, reuse, score, skip, not "
        "applicable) and why; runs and writes nothing.",
    ),
    click.option(
        "--events",
        type=click.Path(path_type=Path, dir_okay=False),
        help="The JSONL event log (default OUTPUT/.seebench/events-<time>-<pid>.jsonl).",
    ),
]


def sweep_options(command):
    """Add the sweep options to ``seebench eval``."""
    for option in reversed(_SWEEP_OPTIONS):
        command = option(command)
    return command


def parse_resources(values: tuple[str, ...]) -> dict[str, float]:
    """``--resource KEY=N`` values as a mapping."""
    found: dict[str, float] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        try:
            amount = float(raw)
        except ValueError:
            amount = -1.0
        if not sep or not key or amount < 0:
            raise SeebenchError(f"--resource {item!r}: expected KEY=N with N >= 0, e.g. sandbox=2")
        found[key.strip()] = amount
    return found


def rerun_base_args() -> list[str]:
    """The options given on this command line that a rerun of failed units repeats."""
    ctx = click.get_current_context()
    args: list[str] = []
    for param in ctx.command.params:
        name = param.name or ""
        if name in _NOT_REPEATED or not isinstance(param, click.Option):
            continue
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.COMMANDLINE:
            continue
        flag = max(param.opts, key=len)
        # the run options (--config, budgets, trackers) keep their values out of ctx.params
        value = ctx.params[name] if name in ctx.params else run_option_value(ctx, name)
        if value is None:
            continue
        if param.is_flag:
            if value:
                args.append(flag)
        elif param.multiple:
            for item in value:
                args += [flag, str(item)]
        else:
            args += [flag, str(value)]
    return args


def _executor(sweep: dict[str, Any], include_paths, registry: Any, index: Any) -> Any:
    """The executor ``--executor``, ``--workers``, ``--ray-address`` and ``--resource`` ask for."""
    from seebench.executors.base import ExecutorOptions
    from seebench.executors.registry import executor_entry
    from seebench.executors.worker import driver_env
    from seebench.plugin_manager import get_plugin_manager

    entry = executor_entry(sweep.get("executor") or "local", get_plugin_manager())
    options = ExecutorOptions(
        workers=sweep.get("workers") or 1,
        address=sweep.get("ray_address"),
        capacity=parse_resources(sweep.get("resources") or ()),
        env=driver_env(),
        include_paths=tuple(str(Path(p).resolve()) for p in include_paths),
        registry=registry,
        index=index,
    )
    return entry.create(options)


def _report(result: Any, output: Path, log_path: Path) -> int:
    """Print the summary table, a budget stop or the failures with the commands that run
    what is left; the exit status."""
    from seebench.executors.driver import failure_summary, rerun_commands
    from seebench.plugin_manager import get_registry
    from seebench.runner.budget import BudgetExhausted, stop_message
    from seebench.runner.progress import summary_table, table_console
    from seebench.scoring.groups import report_groups

    console = table_console(stderr=False)
    console.print(summary_table(result.outcomes))
    report_groups(get_registry(), result.finished, output, console)
    base_args = rerun_base_args()
    for line in failure_summary(result, base_args):
        click.echo(line)
    failed = len(result.failed)
    click.echo(
        f"results in {output}/ (MODEL/METHOD/TASK.json, samples beside each);"
        f" {result.executed} attempt(s) run"
        + (f"; {failed} unit(s) failed" if failed else "")
        + f"; events in {log_path}; browse them with: seebench view {output}"
    )
    if result.stopped is not None:
        commands = rerun_commands(result, base_args, keys=result.not_run)
        stop = BudgetExhausted(result.stopped, result.finished, result.not_run, commands)
        for line in stop_message(stop, output):
            click.echo(line, err=True)
        return 3
    return 1 if failed else 0


def run_sweep_cli(
    config: Any, models: list[str], sweep: dict[str, Any], include_paths, extras: RunExtras
) -> int:
    """Plan and run ``seebench eval`` (one model or many) on the driver; the exit status.

    A plan that fails (an unknown model, task or method) raises before anything is written;
    the run record (``OUTPUT/runs/<time>.yaml``) names every model of a plan that holds.
    """
    from seebench.cli.run_options import run_session
    from seebench.executors.driver import SweepInterrupted, run_sweep
    from seebench.executors.events import EventLog, default_event_log
    from seebench.executors.plan import plan_sweep
    from seebench.plugin_manager import get_registry, get_task_index

    config = dataclasses.replace(config, output=Path(config.output).resolve())
    registry, index = get_registry(), get_task_index()
    runners: dict[str, Any] = {}
    units = plan_sweep(config, models, registry, index, runners)
    if sweep.get("dry_run"):
        from seebench.executors.preview import preview_lines, preview_sweep

        for line in preview_lines(preview_sweep(units, runners)):
            click.echo(line)
        return 0
    executor = _executor(sweep, include_paths, registry, index)
    from seebench import safe_files

    safe_files.add_root(config.output)  # no event log written through a linked .seebench/
    log_path = Path(sweep.get("events") or default_event_log(config.output))
    events = EventLog(log_path)
    try:
        with run_session(config, extras, runners):
            result = run_sweep(
                units,
                executor,
                runners=runners,
                retries=sweep.get("retries", 2),
                backoff=sweep.get("retry_backoff", 2.0),
                events=events,
                progress=config.progress,
                registry=registry,
                index=index,
                budget=config.budget,
            )
    except SweepInterrupted as stopped:
        kept = [o for o in stopped.outcomes if o.status in ("ok", "cached", "not_applicable")]
        running = ", ".join(stopped.running)
        click.echo(
            f"interrupted: {len(kept)} finished unit(s) are kept in {config.output}; stopped "
            f"{len(stopped.running)} running unit(s) ({running}), nothing of them was kept; "
            "run the same command again to resume",
            err=True,
        )
        return 130
    finally:
        events.close()
    return _report(result, config.output, log_path)
