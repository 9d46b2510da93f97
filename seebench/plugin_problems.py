"""Third-party plugins that could not be loaded: one line each, and what they would have added.

A plugin installed through an entry point (or named in ``SEEBENCH_PLUGINS``) that fails to
import, to register or to pass the hook checks is left out: seebench prints one warning line
naming its distribution, the error and how to disable it, and everything else works. The
tasks it would have provided are found, where the installed distribution lists them, in its
``RECORD`` (the ``*.yaml`` files it ships), so ``seebench tasks list`` can show them as
broken and a run that would have included them can record the missing plugin.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seebench import safe_files

#: the most task files of one broken distribution read to learn its task names
MAX_TASK_FILES = 500
#: the largest task file read for its name
MAX_TASK_FILE_BYTES = 256 * 1024
#: the longest error text kept in the one-line report
MAX_ERROR_CHARS = 300


@dataclass(frozen=True)
class KnownTask:
    """A task a broken plugin's distribution ships: its name, suite and file."""

    name: str
    suite: str | None
    path: str


@dataclass(frozen=True)
class PluginProblem:
    """A plugin that was left out: its name, distribution, version and the error (one line)."""

    name: str
    distribution: str
    version: str
    error: str
    tasks: tuple[KnownTask, ...] = ()

    def line(self) -> str:
        """The warning line: which plugin, the error, and how to disable it."""
        return (
            f"plugin {self.name!r} (from {self.distribution} {self.version}) is not loaded: "
            f"{self.error}; the rest of seebench works without it "
            f"(hide this with SEEBENCH_DISABLE_PLUGINS={self.name})"
        )

    def record(self) -> dict[str, Any]:
        """The JSON-ready form a run record stores."""
        return {
            "plugin": self.name,
            "distribution": self.distribution,
            "version": self.version,
            "error": self.error,
            "tasks": [task.name for task in self.tasks],
            "suites": sorted({task.suite for task in self.tasks if task.suite}),
        }


def concerns(record: dict[str, Any], selector: str) -> bool:
    """Whether a run with ``--tasks selector`` would have included the tasks of the left-out
    plugin ``record`` (:meth:`PluginProblem.record`): always for ``all`` (its tasks are
    unknown or among all), else when a part of the selector names one of its tasks or suites."""
    parts = {part.strip() for part in selector.split(",") if part.strip()}
    if "all" in parts:
        return True
    return bool(parts & {*record.get("tasks", ()), *record.get("suites", ())})


def one_line(exc: BaseException) -> str:
    """``Type: message`` on one line, shortened to :data:`MAX_ERROR_CHARS`."""
    text = " ".join(f"{type(exc).__name__}: {exc}".split())
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 3] + "..."


def warn(problem: PluginProblem) -> None:
    """Report ``problem`` in one warning line on the ``seebench`` logger."""
    from seebench.secrets import scrub

    logging.getLogger("seebench").warning("warning: %s", scrub(problem.line()))


def known_tasks(distribution: str) -> tuple[KnownTask, ...]:
    """The tasks an installed distribution ships (task YAMLs its ``RECORD`` lists, bases
    excluded), or ``()`` when it lists none (an editable install, a module on ``PYTHONPATH``)."""
    from importlib import metadata

    try:
        files = metadata.distribution(distribution).files or []
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return ()
    found = []
    for file in files:
        name = file.name
        if not name.endswith((".yaml", ".yml")) or name.startswith("_"):
            continue
        task = _read_task(Path(str(file.locate())))
        if task is not None:
            found.append(task)
        if len(found) >= MAX_TASK_FILES:
            break
    return tuple(found)


def _read_task(path: Path) -> KnownTask | None:
    """The ``name`` and ``suite`` of one task file, or None when it is not one."""
    data = _read_mapping(path)
    if not isinstance(data.get("name"), str):
        return None
    suite = data.get("suite")
    if not isinstance(suite, str) and isinstance(data.get("include"), str):
        base = _read_mapping(path.parent / data["include"])  # the suite is often in the base
        suite = base.get("suite")
    return KnownTask(data["name"], suite if isinstance(suite, str) else None, str(path))


def _read_mapping(path: Path) -> dict[str, Any]:
    """A small YAML file's top-level mapping, or ``{}``."""
    import yaml

    try:
        data = yaml.safe_load(safe_files.read_text(path, MAX_TASK_FILE_BYTES))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}
