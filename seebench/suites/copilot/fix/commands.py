"""``seebench copilot tools install|check`` and ``seebench copilot fix-cases``."""

from __future__ import annotations

import json
from typing import Any

import click

from seebench.suites.copilot.fix.options import ANALYZER_NAMES

#: the fix task of each analyzer (this suite's own task YAMLs)
FIX_TASKS = {name: f"copilot_fix_{name}" for name in ANALYZER_NAMES}


def _copilot_group(cli: click.Group) -> click.Group:
    """The ``copilot`` command group, shared with the suite's other scenarios."""
    group = cli.commands.get("copilot")
    if isinstance(group, click.Group):
        return group
    group = click.Group("copilot", help="Commands of the Copilot scenarios suite.")
    cli.add_command(group)
    return group


@click.group("tools")
def tools_group() -> None:
    """The fix scenario's analyzers (pyright, eslint, typescript from npm; pylint from PyPI)."""


@tools_group.command("install")
@click.option("--npm", default=None, metavar="PATH", help="The npm executable to use.")
def install_command(npm: str | None) -> None:
    """Install the pinned npm analyzers into the tools folder."""
    from seebench.suites.copilot.fix import tools

    root = tools.install_tools(npm=npm)
    for name, version in tools.NPM_PACKAGES.items():
        click.echo(f"{name:12s} {version}")
    click.echo(f"installed in {root}")


@tools_group.command("check")
def check_command() -> None:
    """Say whether every analyzer is installed at its pinned version (exit 1 if not)."""
    from seebench.errors import SeebenchError
    from seebench.suites.copilot.fix.analyzers import analyzer

    missing = 0
    for name in ANALYZER_NAMES:
        try:
            analyzer(name).check_installed()
            versions = analyzer(name).versions()
            click.echo(f"{name:8s} ok  {' '.join(f'{k} {v}' for k, v in versions.items())}")
        except SeebenchError as exc:
            missing += 1
            click.echo(f"{name:8s} --  {exc}")
    if missing:
        raise SystemExit(1)


@click.command("fix-cases")
@click.option(
    "--analyzer",
    "analyzers",
    multiple=True,
    type=click.Choice(sorted(ANALYZER_NAMES)),
    help="Only this analyzer's cases (repeatable; default: all four).",
)
@click.option("--list", "listing", is_flag=True, help="List every excluded case and why.")
@click.option("--json", "as_json", is_flag=True, help="Print counts and verdicts as JSON.")
def fix_cases_command(analyzers: tuple[str, ...], listing: bool, as_json: bool) -> None:
    """How many fix cases reproduce on their file alone (the evaluated ones), and which are
    excluded: no file at the commit, not reproduced, an eslint artefact, an analyzer error.
    Analyses are cached in the data cache; the first run takes minutes."""
    from seebench.data.dataset import read_rows
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.suites.copilot.fix.reproduce import case_verdicts, verdict_counts

    registry, index = get_registry(), get_task_index()
    report: dict[str, Any] = {}
    for name in analyzers or ANALYZER_NAMES:
        rows, _ = read_rows(index.get(FIX_TASKS[name]), registry)
        verdicts = case_verdicts([r for r in rows if r["analyzer"] == name])
        report[name] = {
            "cases": len(verdicts),
            **verdict_counts(verdicts),
            "excluded": [
                {"case_id": v.case_id, "verdict": v.verdict, "reason": v.reason}
                for v in verdicts
                if v.verdict != "reproduced"
            ],
        }
    if as_json:
        click.echo(json.dumps(report, indent=1))
        return
    click.echo(f"{'analyzer':9s} {'cases':>5s} {'included':>8s}  excluded")
    for name, entry in report.items():
        parts = [
            f"{key} {entry[key]}"
            for key in ("artefact", "not_reproduced", "no_file", "analyzer_error")
            if entry[key]
        ]
        click.echo(f"{name:9s} {entry['cases']:5d} {entry['reproduced']:8d}  {', '.join(parts)}")
    if listing:
        for name, entry in report.items():
            for item in entry["excluded"]:
                click.echo(f"{name}\t{item['case_id']}\t{item['verdict']}\t{item['reason']}")


def add_commands(cli: click.Group) -> None:
    group = _copilot_group(cli)
    group.add_command(tools_group)
    group.add_command(fix_cases_command)
