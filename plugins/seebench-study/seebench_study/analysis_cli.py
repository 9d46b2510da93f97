"""``seebench study export`` / ``analyze`` / ``replay``: the study's telemetry out and analysed.

The ``study`` group belongs to the study plugin, which calls :func:`add_commands` to add these.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import click

from seebench.errors import SeebenchError

_SOURCE = click.argument("source", type=click.Path(path_type=Path, dir_okay=False))
_EXCLUDE = click.option(
    "--exclude",
    default="default",
    show_default=True,
    help="Exclusion rules, comma-separated: no-consent, screened-out, no-task, not-finished; "
    "'default' is the first three, 'none' keeps every session. The count each rule removed "
    "is printed.",
)


def _report_problems(problems: list[str], shown: int = 20) -> None:
    for line in problems[:shown]:
        click.echo(f"warning: {line}", err=True)
    if len(problems) > shown:
        click.echo(f"warning: ... and {len(problems) - shown} more left out", err=True)


@click.command("export")
@_SOURCE
@click.option(
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="The file to write.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["jsonl", "csv", "parquet"]),
    default=None,
    help="Default: the output file's suffix.",
)
@click.option(
    "--what",
    type=click.Choice(["events", "participants"]),
    default="events",
    show_default=True,
    help="The raw events, or one row of metrics per participant.",
)
@_EXCLUDE
def export_command(source: Path, output: Path, fmt: str | None, what: str, exclude: str) -> None:
    """Export a study's events (SQLite store or JSONL) to JSONL, CSV or Parquet."""
    from seebench_study.analysis.events import read_events
    from seebench_study.analysis.exclusions import apply_exclusions, parse_rules
    from seebench_study.analysis.export import export_events, export_table

    log = read_events(source)
    _report_problems(log.problems)
    log, exclusions = apply_exclusions(log, parse_rules(exclude))
    click.echo(exclusions.summary(), err=True)
    if what == "events":
        path = export_events(log.events, output, fmt)
        click.echo(f"wrote {len(log.events)} events to {path}")
        return
    from seebench_study.analysis.metrics import participant_table

    table, _, _ = participant_table(log)
    table = table[[c for c in table.columns if not c.startswith("_")]]
    path = export_table(table, output, fmt)
    click.echo(f"wrote {len(table)} participants to {path}")


@click.command("analyze")
@click.argument("source", required=False, type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--released-chat", is_flag=True, help="Analyse the released RealHumanEval chat log instead."
)
@click.option(
    "--data",
    "data_path",
    type=click.Path(path_type=Path),
    default=None,
    help="With --released-chat: the log file, or a folder holding it; it is checked and stored in the data cache.",
)
@click.option(
    "--figures",
    "figures_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Write PNG figures into this folder.",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Also write the results as JSON.",
)
@click.option(
    "--bootstrap",
    "resamples",
    type=click.IntRange(100, 100_000),
    default=2000,
    show_default=True,
    help="Bootstrap resamples for the deltas' 95% intervals.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@_EXCLUDE
def analyze_command(
    source: Path | None,
    released_chat: bool,
    data_path: Path | None,
    figures_dir: Path | None,
    json_path: Path | None,
    resamples: int,
    seed: int,
    exclude: str,
) -> None:
    """Print a study's metrics table and comparisons with the no-LLM condition.

    SOURCE is the study's SQLite store or a JSONL export of its events. With --released-chat,
    the released RealHumanEval chat log is analysed and its published counts reproduced.
    """
    if released_chat == (source is not None):
        raise SeebenchError("give either SOURCE (a study's events) or --released-chat")
    if released_chat:
        _analyze_released(data_path, figures_dir, json_path)
        return
    from seebench_study.analysis.events import read_events
    from seebench_study.analysis.exclusions import parse_rules
    from seebench_study.analysis.report import analyze, format_report, to_json, write_figures

    log = read_events(source)
    _report_problems(log.problems)
    analysis = analyze(log, resamples=resamples, seed=seed, exclude=parse_rules(exclude))
    click.echo(format_report(analysis))
    if figures_dir is not None:
        for path in write_figures(analysis, figures_dir):
            click.echo(f"wrote {path}")
    if json_path is not None:
        _write_json(json_path, to_json(analysis))


def _analyze_released(
    data_path: Path | None, figures_dir: Path | None, json_path: Path | None
) -> None:
    from seebench_study.analysis import released as rel
    from seebench_study.analysis.figures import chat_histograms
    from seebench_study.analysis.released_metrics import (
        format_summary,
        message_lengths,
        messages_per_task_counts,
        released_chat_summary,
    )

    path = rel.cache_released_chat(data_path) if data_path is not None else rel.released_chat_path()
    messages, problems = rel.read_released_chat(path)
    _report_problems(problems)
    summary = released_chat_summary(messages)
    click.echo(format_summary(summary))
    if figures_dir is not None:
        figures_dir.mkdir(parents=True, exist_ok=True)
        figure = chat_histograms(
            messages_per_task_counts(messages),
            message_lengths(messages),
            figures_dir / "released_chat_messages.png",
        )
        if figure is not None:
            click.echo(f"wrote {figure}")
    if json_path is not None:
        _write_json(json_path, summary)


def _finite(value):
    """``value`` with NaN and infinities replaced by ``None`` (JSON has neither)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def _write_json(path: Path, document: dict) -> None:
    from seebench_study.analysis.export import atomic_write

    text = json.dumps(_finite(document), indent=2, sort_keys=True, allow_nan=False, default=str)
    atomic_write(path, lambda tmp: tmp.write_text(text + "\n", encoding="utf-8"))
    click.echo(f"wrote {path}")


@click.command("replay")
@_SOURCE
@click.option(
    "--model",
    "model_spec",
    required=True,
    help="The model to replay the suggestion requests against.",
)
@click.option(
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="JSONL file of one record per replayed request.",
)
@click.option(
    "--limit", type=click.IntRange(1), default=None, help="Replay at most this many requests."
)
@click.option(
    "-o", "--option", "options", multiple=True, help="Model client option KEY=VALUE (repeatable)."
)
def replay_command(
    source: Path, model_spec: str, output: Path, limit: int | None, options: tuple[str, ...]
) -> None:
    """Send a study's logged suggestion requests to another model, offline."""
    from seebench.models import resolve_model
    from seebench.models.client import ModelClient
    from seebench_study.analysis.attempts import session_attempts
    from seebench_study.analysis.events import read_events
    from seebench_study.analysis.replay import iter_replay, replay_summary

    parsed = client_options(options)
    log = read_events(source)
    _report_problems(log.problems)
    model, _ = resolve_model(model_spec)
    client = ModelClient(model, parsed)
    attempts = [a for s in log.sessions.values() for a in session_attempts(s)]
    records = []
    output.parent.mkdir(parents=True, exist_ok=True)
    with open(output, "w", encoding="utf-8") as handle:  # each record saved as it arrives
        for record in iter_replay(attempts, client, limit=limit):
            handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
            handle.flush()
            records.append(record)
    click.echo(json.dumps(replay_summary(records), indent=2))
    click.echo(f"wrote {len(records)} records to {output}")


def client_options(items: tuple[str, ...]) -> dict[str, Any]:
    """``KEY=VALUE`` items (values read as YAML) checked against the model client's options."""
    import jsonschema
    import yaml

    from seebench.errors import did_you_mean
    from seebench.models.client import CLIENT_OPTIONS

    parsed: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or not key:
            raise SeebenchError(f"--option {item!r}: expected KEY=VALUE")
        if key not in CLIENT_OPTIONS:
            raise SeebenchError(
                f"--option {key!r}: not a model client option{did_you_mean(key, CLIENT_OPTIONS)}"
            )
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError:
            value = raw
        schema = {k: v for k, v in CLIENT_OPTIONS[key].items() if k != "description"}
        try:
            jsonschema.validate(value, schema)
        except jsonschema.ValidationError:
            raise SeebenchError(
                f"--option {key}={raw}: expected {CLIENT_OPTIONS[key]['description']}"
            ) from None
        parsed[key] = value
    return parsed


def add_commands(group: click.Group) -> None:
    """Add ``export``, ``analyze`` and ``replay`` to the ``study`` command group."""
    for command in (export_command, analyze_command, replay_command):
        group.add_command(command)


def main(argv: list[str] | None = None) -> None:
    """Run these commands alone, before the study plugin adds them to ``seebench study``."""
    import sys

    @click.group("study")
    def standalone() -> None:
        """The study analysis commands (python -m seebench_study.analysis_cli)."""

    add_commands(standalone)
    try:
        standalone.main(args=argv, prog_name="seebench study", standalone_mode=False)
    except SeebenchError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)


if __name__ == "__main__":  # pragma: no cover
    main()
