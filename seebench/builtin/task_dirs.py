"""Registers the task YAML files shipped with seebench (``task_configs/``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from seebench.plugin_manager import hookimpl


def builtin_task_dir() -> Path | None:
    """``seebench/task_configs`` in an installed wheel, else ``task_configs/`` of a checkout."""
    packaged = Path(str(resources.files("seebench"))) / "task_configs"
    if packaged.is_dir():
        return packaged
    checkout = Path(__file__).resolve().parents[2] / "task_configs"
    return checkout if checkout.is_dir() else None


@hookimpl
def register_task_dirs(register) -> None:
    directory = builtin_task_dir()
    if directory is not None:
        register(directory)
