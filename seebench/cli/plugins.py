"""``seebench plugins``: ``list`` the plugins (distribution, version, hooks, what each
registers, status) and ``check`` one before publishing it. ``seebench plugins`` alone lists."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from typing import Any

import click


@click.group("plugins", invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--all", "show_all", is_flag=True, help="Include built-in plugins.")
@click.pass_context
def plugins_command(ctx: click.Context, as_json: bool, show_all: bool) -> None:
    """List plugins (third-party by default) or check one: see 'list' and 'check'."""
    if ctx.invoked_subcommand is None:
        _list(as_json, show_all)


@plugins_command.command("list")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--all", "show_all", is_flag=True, help="Include built-in plugins.")
def list_command(as_json: bool, show_all: bool) -> None:
    """List plugins: distribution, version, hooks, what each registers and its status
    (a plugin that failed to load is listed as 'not loaded' with the error)."""
    _list(as_json, show_all)


def _rows(show_all: bool) -> list[dict[str, Any]]:
    from seebench.plugin_check import registrations
    from seebench.plugin_manager import (
        get_plugin_manager,
        get_registry,
        get_task_index,
        plugin_infos,
    )

    pm = get_plugin_manager()
    registry = get_registry()  # builds it, so plugins failing to register are listed as such
    tasks: dict[str, list[str]] = {}
    for task, plugin in sorted(get_task_index().origins.items()):
        tasks.setdefault(plugin, []).append(task)
    rows = []
    for info in plugin_infos(pm):
        if info.builtin and not show_all:
            continue
        row = asdict(info)
        row["registers"] = registrations(registry, {info.name}) if info.status == "ok" else {}
        if info.name in tasks:
            row["registers"]["tasks"] = tasks[info.name]
        rows.append(row)
    return rows


def _list(as_json: bool, show_all: bool) -> None:
    rows = _rows(show_all)
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    if not rows:
        click.echo("no third-party plugins loaded (use --all to include built-ins)")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table()
    for column in ("plugin", "distribution", "version", "hooks", "registers", "status"):
        table.add_column(column)
    for row in rows:
        registers = "; ".join(
            f"{kind}: {', '.join(names)}"
            for kind, names in row["registers"].items()
            if kind != "task dirs"
        )
        hooks = ", ".join(h.removeprefix("register_") for h in row["hooks"])
        table.add_row(
            row["name"], row["distribution"], row["version"], hooks, registers, row["status"]
        )
    Console(width=160).print(table)


@plugins_command.command("check")
@click.argument("target")
@click.option("--items", default=5, show_default=True, help="Test items per smoke evaluation.")
@click.option("--json", "as_json", is_flag=True, help="Print the findings as JSON.")
def check_command(target: str, items: int, as_json: bool) -> None:
    """Check a plugin before publishing it: TARGET is an installed distribution, a project
    folder (with pyproject.toml) or a module file. Exits 1 when something must be fixed."""
    from seebench.plugin_check import check_plugin

    report = check_plugin(target, items=items)
    if as_json:
        findings = [asdict(f) for f in report.findings]
        click.echo(json.dumps({"target": target, "ok": report.ok, "findings": findings}, indent=2))
    else:
        for line in report.lines():
            click.echo(line)
    if not report.ok:
        sys.exit(1)
