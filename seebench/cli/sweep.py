"""The sweep options of ``seebench eval`` (several models, executors, retries, event log) and
the code that runs a sweep from the command line."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click

from seebench.errors import SeebenchError

#: ``seebench eval`` options that a rerun command of failed units never repeats.
_NOT_REPEATED = ("model", "models_file", "tasks", "method", "shard", "force", "no_progress")


def sweep_options(command):
    """Add the sweep options to ``seebench eval``."""
    options = [
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
            "--events",
            type=click.Path(path_type=Path, dir_okay=False),
            help="The JSONL event log (default OUTPUT/.seebench/events-<time>-<pid>.jsonl).",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def wants_sweep(models: list[str], sweep: dict[str, Any]) -> bool:
    """Whether this run needs the sweep driver; one model run serially in this process
    without --retries/--events keeps the plain runner."""
    ctx = click.get_current_context(silent=True)
    given = set()
    if ctx is not None:
        given = {
            name
            for name in ("retries", "events", "retry_backoff")
            if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE
        }
    return (
        len(models) > 1
        or sweep.get("models_file") is not None
        or sweep.get("executor", "local") != "local"
        or sweep.get("workers", 1) > 1
        or bool(given)
    )


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
    from seebench.cli.run_options import _meta

    ctx = click.get_current_context()
    args: list[str] = []
    for param in ctx.command.params:
        name = param.name or ""
        if name in _NOT_REPEATED or not isinstance(param, click.Option):
            continue
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.COMMANDLINE:
            continue
        flag = max(param.opts, key=len)
        # run_options (--log-to, --max-cost...) keep their values in the context, not params
        value = ctx.params[name] if name in ctx.params else _meta(ctx).get(name)
        if param.is_flag:
            if value:
                args.append(flag)
        elif param.multiple:
            for item in value:
                args += [flag, str(item)]
        else:
            args += [flag, str(value)]
    return args


def run_sweep_cli(config: Any, models: list[str], sweep: dict[str, Any], include_paths) -> int:
    """Plan and run a sweep for ``seebench eval``; returns the exit status."""
    from seebench.executors.base import ExecutorOptions
    from seebench.executors.driver import SweepInterrupted, failure_summary, run_sweep
    from seebench.executors.events import EventLog, default_event_log
    from seebench.executors.plan import plan_sweep
    from seebench.executors.registry import executor_entry
    from seebench.executors.worker import driver_env
    from seebench.plugin_manager import get_plugin_manager, get_registry, get_task_index
    from seebench.runner.progress import summary_table, table_console

    entry = executor_entry(sweep.get("executor") or "local", get_plugin_manager())
    config = dataclasses.replace(config, output=Path(config.output).resolve())
    registry, index = get_registry(), get_task_index()
    runners: dict[str, Any] = {}
    units = plan_sweep(config, models, registry, index, runners)
    options = ExecutorOptions(
        workers=sweep.get("workers") or 1,
        address=sweep.get("ray_address"),
        capacity=parse_resources(sweep.get("resources") or ()),
        env=driver_env(),
        include_paths=tuple(str(Path(p).resolve()) for p in include_paths),
        registry=registry,
        index=index,
    )
    executor = entry.create(options)
    log_path = sweep.get("events") or default_event_log(config.output)
    events = EventLog(Path(log_path))
    try:
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
        )
    except SweepInterrupted as stopped:
        kept = [o for o in stopped.outcomes if o.status in ("ok", "cached", "not_applicable")]
        click.echo(
            f"interrupted: {len(kept)} finished unit(s) are kept in {config.output}; stopped "
            f"{len(stopped.running)} running unit(s), nothing of them was kept; run the same "
            "command again to resume",
            err=True,
        )
        return 130
    finally:
        events.close()
    table_console(stderr=False).print(summary_table(result.outcomes))
    for line in failure_summary(result, rerun_base_args()):
        click.echo(line)
    failed = len(result.failed)
    click.echo(
        f"results in {config.output}; {result.executed} attempt(s) run"
        + (f"; {failed} unit(s) failed" if failed else "")
        + f"; events in {log_path}"
    )
    return 1 if failed else 0
