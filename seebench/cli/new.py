"""``seebench new plugin NAME``: write a pip-installable plugin that passes ``seebench plugins
check`` and its own tests out of the box (one task YAML and its data, a metric, a test and a
README), to start a suite from."""

from __future__ import annotations

import re
import string
from pathlib import Path

import click

from seebench.errors import SeebenchError

TEMPLATES = Path(__file__).parent / "templates" / "plugin"
NAME = re.compile(r"^[a-z][a-z0-9_]{0,40}$")


def plugin_files(name: str) -> dict[str, str]:
    """The files of the plugin ``name`` (relative path -> text)."""
    from seebench import __version__

    package = f"seebench_{name}"
    values = {
        "suite": name,
        "package": package,
        "dist": f"seebench-{name.replace('_', '-')}",
        "task": f"{name}_intent",
        "seebench_version": __version__,
    }
    layout = {
        "pyproject.toml": "pyproject.toml.tmpl",
        "README.md": "README.md.tmpl",
        f"{package}/__init__.py": "__init__.py.tmpl",
        f"{package}/metrics.py": "metrics.py.tmpl",
        f"{package}/tasks/{values['task']}.yaml": "task.yaml.tmpl",
        f"{package}/tasks/{values['task']}.jsonl": "task.jsonl.tmpl",
        f"tests/test_{name}.py": "test_plugin.py.tmpl",
    }
    return {
        path: string.Template((TEMPLATES / template).read_text(encoding="utf-8")).substitute(values)
        for path, template in layout.items()
    }


def write_plugin(name: str, parent: Path) -> Path:
    """Write the plugin ``name`` into ``parent/seebench-<name>``; returns that folder."""
    if not NAME.match(name):
        raise SeebenchError(
            f"plugin name {name!r}: use lower-case letters, digits and '_', starting with a "
            "letter (it names the suite, the package seebench_NAME and the distribution)"
        )
    folder = parent / f"seebench-{name.replace('_', '-')}"
    if folder.exists():
        raise SeebenchError(f"{folder} already exists; choose another name or --dir")
    for relative, text in plugin_files(name).items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return folder


@click.group("new")
def new_group() -> None:
    """Start something new from a template."""


@new_group.command("plugin")
@click.argument("name")
@click.option(
    "--dir",
    "parent",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Folder to create the plugin in.",
)
def new_plugin_command(name: str, parent: Path) -> None:
    """Write a pip-installable plugin NAME (suite NAME, package seebench_NAME): one task with
    its data, a metric, a test and a README. It passes 'seebench plugins check' as written."""
    folder = write_plugin(name, parent)
    click.echo(f"wrote {folder}")
    click.echo(f"next: seebench plugins check {folder}  (then: cd {folder} && pip install .)")
