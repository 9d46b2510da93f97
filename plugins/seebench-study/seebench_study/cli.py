"""``seebench study``: serve a study, import its data, print the telemetry schema."""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
import socket
from pathlib import Path
from typing import Any

import click

from seebench.errors import SeebenchError
from seebench.secrets import scrub

LOOPBACK = "127.0.0.1"
TOKEN_ENV = "SEEBENCH_STUDY_ADMIN_TOKEN"


@click.group("study")
def study_group() -> None:
    """Human studies of coding assistants (RealHumanEval): serve the participant app, then
    export and analyse its telemetry."""


@study_group.command("serve")
@click.argument("study")
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The SQLite database of the study (default: ./<study>.study.sqlite).",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Import the study's task table from this folder into the data cache first.",
)
@click.option(
    "--unsafe-host-exec",
    is_flag=True,
    help="Run participants' code on the host with rlimits only (no sandbox).",
)
@click.option("--seed", type=int, default=None, help="Seed of the condition assignment.")
@click.option(
    "--warm/--no-warm",
    default=True,
    help="Load the models and ask each for one token before serving (a failure is a warning).",
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Sandboxes for Run/Submit (default: the study's run.workers, else 2).",
)
def serve_command(
    study: str,
    db_path: Path | None,
    port: int,
    data_dir: Path | None,
    unsafe_host_exec: bool,
    seed: int | None,
    warm: bool,
    workers: int | None,
) -> None:
    """Serve STUDY (a shipped study name or a YAML file) on 127.0.0.1:PORT.

    The admin token is read from $SEEBENCH_STUDY_ADMIN_TOKEN or made up and printed once.
    Before anything is created, the port must be free and every condition's model must
    resolve; a model key variable that is not set is a warning.
    """
    try:
        import uvicorn

        from seebench_study.app import StudyApp, create_app
    except ImportError as exc:
        raise SeebenchError(
            f"seebench study serve needs the study extra ({exc.name} is missing): "
            "pip install 'seebench[study]'"
        ) from None
    from seebench_study.definition import find_study, import_study_data, load_study
    from seebench_study.store import StudyStore

    if data_dir is not None:
        import_study_data(find_study(study), data_dir)
    definition = load_study(study)
    if workers is not None:
        definition = dataclasses.replace(definition, run_workers=workers)
    ensure_port_free(port)
    for line in model_warnings(definition):
        click.echo(f"warning: {line}", err=True)
    store = StudyStore(db_path or Path(f"{definition.name}.study.sqlite"))
    token = os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(16)
    state = StudyApp(definition, store, token, unsafe_host_exec=unsafe_host_exec, seed=seed)
    if warm:
        for condition_id, assistant in state.assistants.items():
            click.echo(f"loading the model of condition {condition_id} ...", err=True)
            assistant.warm_up()
            problem = assistant.probe()
            if problem is not None:
                click.echo(f"warning: condition {condition_id}: {scrub(problem)}", err=True)
        state.runner.sandbox()
    base = f"http://{LOOPBACK}:{port}"
    click.echo(f"study {definition.name}: {base}/  (database {store.path})")
    if TOKEN_ENV in os.environ:
        click.echo(f"admin: {base}/admin?token=<${TOKEN_ENV}>")
    else:
        click.echo(f"admin: {base}/admin?token={token}")
    try:
        uvicorn.run(create_app(state), host=LOOPBACK, port=port, log_level="warning")
    finally:
        state.close_models()  # the app's shutdown did it, unless uvicorn never started it


def ensure_port_free(port: int) -> None:
    """:class:`SeebenchError` when 127.0.0.1:``port`` cannot be listened on (before any
    database or token is made)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((LOOPBACK, port))
        except OSError as exc:
            raise SeebenchError(
                f"--port {port}: {LOOPBACK}:{port} is in use or not allowed ({exc.strerror}); "
                "choose another port"
            ) from None


def model_warnings(study: Any) -> list[str]:
    """Every condition's model must resolve (else :class:`SeebenchError`); lines for API
    models whose key variable is not set."""
    from seebench.models import resolve_model
    from seebench.models.servers import is_served

    lines = []
    for condition in study.conditions:
        if not condition.model:
            continue
        if not condition.completion:
            try:
                model, _ = resolve_model(condition.model)
            except SeebenchError as exc:
                raise SeebenchError(f"{study.path}: condition {condition.id}: {exc}") from None
            if model.kind != "openai" or is_served(model):  # a managed server: its own key
                continue
        key_env = str(condition.options.get("api_key_env") or "OPENAI_API_KEY")
        if not os.environ.get(key_env):
            lines.append(
                f"condition {condition.id}: ${key_env} is not set; model "
                f"{scrub(condition.model)} is called without a key"
            )
    return lines


@study_group.command("withdraw")
@click.argument(
    "db_path", metavar="DB", type=click.Path(dir_okay=False, exists=True, path_type=Path)
)
@click.argument("participant")
def withdraw_command(db_path: Path, participant: str) -> None:
    """Delete PARTICIPANT's sessions and events from the study database DB (a withdrawal).

    The database is vacuumed so nothing of theirs stays in the file; exports made before
    must be deleted by hand.
    """
    from seebench_study.store import StudyStore

    store = StudyStore(db_path)
    try:
        sessions, events = store.withdraw(participant)
    finally:
        store.close()
    if sessions == 0:
        raise SeebenchError(f"{db_path}: no session of participant {participant!r}")
    click.echo(f"deleted {sessions} session(s) and {events} event(s) of {participant!r}")


@study_group.command("import-data")
@click.argument("study")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def import_data_command(study: str, directory: Path) -> None:
    """Copy STUDY's task table from DIRECTORY into the data cache (found by its sha256)."""
    from seebench_study.definition import find_study, import_study_data

    imported = import_study_data(find_study(study), directory)
    click.echo(f"imported {imported[0]}" if imported else "already in the data cache")


@study_group.command("schema")
def schema_command() -> None:
    """Print the JSON Schema of the study telemetry events (version 1)."""
    from seebench_study.telemetry import event_schema

    click.echo(json.dumps(event_schema(), indent=2))


@study_group.command("simulate")
@click.option("--participants", type=click.IntRange(1, 1000), default=30, show_default=True)
@click.option(
    "--db",
    "db_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("simulated.study.sqlite"),
    show_default=True,
    help="The study database to write (must not exist); analyse it again with 'study analyze'.",
)
@click.option(
    "--faster",
    "faster_s",
    type=float,
    default=60.0,
    show_default=True,
    help="Seconds the autocomplete condition takes off every task (the planted effect).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--data",
    "data_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Import the RealHumanEval task table from this folder into the data cache first.",
)
@click.option(
    "--unsafe-host-exec",
    is_flag=True,
    help="Run the simulated Submits on the host with rlimits only (no sandbox).",
)
def simulate_command(
    participants: int,
    db_path: Path,
    faster_s: float,
    seed: int,
    data_dir: Path | None,
    unsafe_host_exec: bool,
) -> None:
    """Play N scripted participants (diligent, two-tab, skipper, decliner, idle, forger)
    through the study's HTTP protocol against a stand-in model, then analyse the result.

    Exits with status 1 when the analysis does not recover the planted effect within its 95%
    interval or does not exclude exactly the sessions it should.
    """
    from seebench_study.definition import find_study, import_study_data
    from seebench_study.simulate import check, simulate

    if data_dir is not None:
        import_study_data(find_study("realhumaneval"), data_dir)
    outcome = simulate(
        participants, db_path, faster_s=faster_s, seed=seed, unsafe_host_exec=unsafe_host_exec
    )
    check(outcome, db_path, seed=seed)
    for line in outcome.lines():
        click.echo(line)
    click.echo(f"database: {db_path} (seebench study analyze {db_path})")
    if not (outcome.recovered and outcome.exclusions_right):
        raise SystemExit(1)


@study_group.command("power")
@click.option(
    "--effect",
    "effects",
    type=float,
    multiple=True,
    default=(30.0, 60.0, 90.0, 120.0),
    show_default=True,
    help="A difference of condition means to detect, in the metric's unit (repeatable).",
)
@click.option(
    "--metric",
    type=click.Choice(["seconds_per_task", "tasks_reached"]),
    default="seconds_per_task",
    show_default=True,
)
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05)
@click.option(
    "--power", "power_", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.8
)
@click.option(
    "--conditions",
    type=click.IntRange(2, 20),
    default=3,
    show_default=True,
    help="Conditions of the design, the control among them (RealHumanEval's main one: 3 kinds).",
)
@click.option(
    "--data",
    "data_path",
    type=click.Path(path_type=Path),
    default=None,
    help="The released chat log, or a folder holding it (stored in the data cache once).",
)
def power_command(
    effects: tuple[float, ...],
    metric: str,
    alpha: float,
    power_: float,
    conditions: int,
    data_path: Path | None,
) -> None:
    """Participants a design needs to detect an effect, from the spread of the released
    RealHumanEval data (its chat log: the per-participant record that is public)."""
    from seebench_study.analysis import released as rel
    from seebench_study.power import power_lines, spread

    path = rel.cache_released_chat(data_path) if data_path is not None else rel.released_chat_path()
    messages, problems = rel.read_released_chat(path)
    for line in problems[:5]:
        click.echo(f"warning: {line}", err=True)
    found = spread(messages, metric)
    for line in power_lines(found, list(effects), alpha=alpha, power=power_, conditions=conditions):
        click.echo(line)
