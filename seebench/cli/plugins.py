"""``seebench plugins``: list loaded plugins, their versions and the hooks they implement."""

from __future__ import annotations

import json
from dataclasses import asdict

import click


@click.command("plugins")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
@click.option("--all", "show_all", is_flag=True, help="Include built-in plugins.")
def plugins_command(as_json: bool, show_all: bool) -> None:
    """List plugins (third-party by default), versions and implemented hooks."""
    from seebench.plugin_manager import plugin_infos

    infos = [i for i in plugin_infos() if show_all or not i.builtin]
    if as_json:
        click.echo(json.dumps([asdict(i) for i in infos], indent=2))
        return
    if not infos:
        click.echo("no third-party plugins loaded (use --all to include built-ins)")
        return
    from rich.console import Console
    from rich.table import Table

    table = Table()
    for column in ("plugin", "distribution", "version", "hooks"):
        table.add_column(column)
    for info in infos:
        table.add_row(info.name, info.distribution, info.version, ", ".join(info.hooks))
    Console().print(table)
