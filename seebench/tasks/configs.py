"""Where the built-in suites' task definitions live: ``task_configs/<suite>/``.

A checkout keeps them at the top of the repository (``task_configs/`` beside ``seebench/``);
a wheel ships the same folder inside the package (``seebench/task_configs/``, see
``[tool.hatch.build.targets.wheel.force-include]`` in ``pyproject.toml``). Each suite plugin
registers its folder with ``register_task_dirs``; suite code that reads a data list shipped
beside the YAMLs asks :func:`task_config_dir` too.
"""

from __future__ import annotations

from pathlib import Path

#: the package folder (``seebench/``)
_PACKAGE = Path(__file__).resolve().parents[1]


def task_configs_root() -> Path:
    """The ``task_configs`` folder: inside the installed package, else at the checkout's top."""
    packaged = _PACKAGE / "task_configs"
    return packaged if packaged.is_dir() else _PACKAGE.parent / "task_configs"


def task_config_dir(name: str) -> Path:
    """The folder of one built-in suite's task YAMLs (and their data lists), e.g. ``selu``.

    The path is returned whether or not it exists: registering a missing folder is reported
    by the registry, naming the plugin.
    """
    return task_configs_root() / name
