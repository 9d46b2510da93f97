"""Options of ``seebench eval`` that shape a run rather than a unit: ``--config`` (a run
file), budgets and experiment trackers.

:func:`run_options` adds them to a click command; their values are kept in the click context
and read back with :func:`run_extras`, so the command's own signature does not change. The run
file is applied first (an eager option) and becomes the command's defaults, so flags given on
the command line win (see :mod:`seebench.runner.run_config`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from seebench.errors import SeebenchError

if TYPE_CHECKING:
    from seebench.runner.budget import Budget


_META = "seebench.run_options"
#: Environment variable naming the trackers to log to when ``--log-to`` is not given.
LOG_TO_ENV = "SEEBENCH_LOG_TO"


@dataclass
class RunExtras:
    """What :func:`run_options` collected for the current command."""

    method_options: dict[str, Any] = field(default_factory=dict)  # from the run file
    budget: Budget | None = None
    trackers: list[str] = field(default_factory=list)
    run_file: Path | None = None
    sources: dict[str, str] = field(default_factory=dict)


def _meta(ctx: click.Context) -> dict[str, Any]:
    return ctx.meta.setdefault(_META, {})


def run_option_value(ctx: click.Context, name: str) -> Any:
    """The value of the run option ``name`` (``run_file``, ``log_to``, ``max_tokens_total``,
    ``max_cost``, ``unit_time_limit``), which click keeps out of ``ctx.params``."""
    return _meta(ctx).get(name)


def _apply_run_file(ctx: click.Context, param: click.Parameter, value: Path | None) -> None:
    from seebench.runner.run_config import load_run_file, run_file_defaults

    if value is None:
        return
    document = load_run_file(value)
    names = {p.name for p in ctx.command.params if p.name}
    defaults = run_file_defaults(document, value, names, ctx.command.name or "eval")
    ctx.default_map = {**(ctx.default_map or {}), **defaults}
    _meta(ctx).update(run_file=value, options=dict(document.get("options") or {}))


def _keep(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    _meta(ctx)[param.name] = value


def run_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add ``--config``, ``--log-to``, ``--max-tokens-total``, ``--max-cost`` and
    ``--unit-time-limit`` to a command."""
    decorators = [
        click.option(
            "--config",
            "run_file",
            type=click.Path(path_type=Path, dir_okay=False, exists=True),
            is_eager=True,
            expose_value=False,
            callback=_apply_run_file,
            help="Run file (YAML) with this run's options; flags given here override it.",
        ),
        click.option(
            "--log-to",
            "log_to",
            expose_value=False,
            callback=_keep,
            help=f"Experiment trackers, comma-separated: wandb, mlflow (default: ${LOG_TO_ENV}).",
        ),
        click.option(
            "--max-tokens-total",
            "max_tokens_total",
            type=click.IntRange(min=1),
            expose_value=False,
            callback=_keep,
            help="Stop the run (cleanly) once its units used this many tokens.",
        ),
        click.option(
            "--max-cost",
            "max_cost",
            type=click.FloatRange(min=0, min_open=True),
            expose_value=False,
            callback=_keep,
            help="Stop the run (cleanly) once its units cost this many USD (from -o price_*).",
        ),
        click.option(
            "--unit-time-limit",
            "unit_time_limit",
            type=click.FloatRange(min=0, min_open=True),
            expose_value=False,
            callback=_keep,
            help="Seconds one unit may run; a slower unit fails with that reason.",
        ),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def _trackers(value: str | None) -> list[str]:
    raw = value if value is not None else os.environ.get(LOG_TO_ENV, "")
    return [name.strip() for name in raw.split(",") if name.strip()]


def _sources(ctx: click.Context) -> dict[str, str]:
    labels = {"DEFAULT_MAP": "run file", "COMMANDLINE": "command line", "ENVIRONMENT": "env"}
    sources = {}
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name else None
        if source is not None:
            sources[param.name] = labels.get(source.name, "default")
    if _meta(ctx).get("options") and "options" in sources:
        # a run file's options merge with -o (they are not a default click knows of)
        given = sources["options"] == "command line"
        sources["options"] = "run file and command line" if given else "run file"
    return sources


def run_extras() -> RunExtras:
    """The run file's options, the budget and the trackers of the current command."""
    from seebench.runner.budget import Budget

    ctx = click.get_current_context()
    meta = _meta(ctx)
    budget = Budget(
        max_tokens_total=meta.get("max_tokens_total"),
        max_cost=meta.get("max_cost"),
        unit_time_limit=meta.get("unit_time_limit"),
    )
    return RunExtras(
        method_options=dict(meta.get("options", {})),
        budget=budget if budget.active else None,
        trackers=_trackers(meta.get("log_to")),
        run_file=meta.get("run_file"),
        sources=_sources(ctx),
    )


def model_records(runners: dict[str, Any], config: Any) -> list[dict[str, Any]]:
    """Each model of a run with its resolved method and options, for the run record."""
    records = []
    for spec, runner in runners.items():
        records.append(
            {
                "spec": spec,
                "id": runner.model.id,
                "method": runner.method_name,
                "method_options": dict(config.method_options),
            }
        )
    return records


@contextlib.contextmanager
def run_session(
    config: Any, extras: RunExtras, runners: dict[str, Any] | None = None
) -> Iterator[None]:
    """Around one run: store its resolved configuration in the results directory, every
    model of ``runners`` (model spec -> runner) included, and log it to the trackers of
    ``extras`` (started before the first unit, finished after the last)."""
    from seebench.plugin_manager import get_registry
    from seebench.runner.run_config import resolved_config, store_resolved_config

    models = model_records(runners or {}, config)
    missing = get_registry().missing_plugins(config.tasks)
    store_resolved_config(
        config, config.output, extras.sources, extras.run_file, models, missing_plugins=missing
    )
    if not extras.trackers:
        yield
        return
    from seebench.trackers import tracking

    resolved = resolved_config(config, extras.sources, extras.run_file, models)
    from seebench.plugin_manager import get_plugin_manager

    with tracking(extras.trackers, resolved, config.output, get_plugin_manager().get_plugins()):
        yield


def parse_sample_ids(text: str) -> tuple[str, ...]:
    """``--samples``: ids separated by commas, or the path of a file of ids (one a line;
    blank lines and ``#`` comments skipped)."""
    path = Path(text)
    if path.is_file():
        from seebench import safe_files

        try:
            body = safe_files.read_text(path, 16 * 1024 * 1024)
        except (OSError, UnicodeDecodeError) as exc:
            raise SeebenchError(f"--samples {text}: cannot read: {exc}") from None
        ids = [line.strip() for line in body.splitlines()]
        ids = [i for i in ids if i and not i.startswith("#")]
    else:
        ids = [part.strip() for part in text.split(",") if part.strip()]
    if not ids:
        raise SeebenchError(f"--samples {text!r}: no sample ids (ID,ID,... or a file of ids)")
    return tuple(dict.fromkeys(ids))
