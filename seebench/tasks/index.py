"""Discovering tasks in the registered task directories.

A YAML file that fails to load is kept as a :class:`BrokenTask` with its problems, so that
``seebench tasks list`` shows it instead of silently skipping it. Besides the directories
plugins register, ``--include-path DIR`` adds directories for one command
(:func:`set_include_paths`), without writing a plugin.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from seebench.errors import SeebenchError, TaskSpecError
from seebench.registry import Registry, TaskDirEntry
from seebench.tasks.spec import TaskSpec
from seebench.tasks.validate import load_task


@dataclass(frozen=True)
class BrokenTask:
    """A task file that could not be loaded, with one message per problem."""

    path: Path
    name: str
    suite: str | None
    plugin: str
    problems: tuple[str, ...]


@dataclass(frozen=True)
class TaskIndex:
    """All tasks found in the registered directories."""

    tasks: dict[str, TaskSpec]
    broken: tuple[BrokenTask, ...]
    origins: dict[str, str]  # task name -> plugin

    def get(self, name: str) -> TaskSpec:
        """The task named ``name``; a clear error if unknown or broken."""
        if name in self.tasks:
            return self.tasks[name]
        for broken in self.broken:
            if broken.name == name:
                raise SeebenchError(f"task {name!r} is invalid: {broken.problems[0]}")
        hint = self._did_you_mean(name)
        raise SeebenchError(f"unknown task {name!r}{hint}; see 'seebench tasks list'")

    def _did_you_mean(self, name: str) -> str:
        """``" (did you mean 'x'?)"`` for the closest task or suite names, else ``""``."""
        candidates = [*self.tasks, *self.suites(), *(b.name for b in self.broken)]
        close = difflib.get_close_matches(name, candidates, n=3, cutoff=0.6)
        if not close:
            return ""
        return " (did you mean " + " or ".join(repr(c) for c in dict.fromkeys(close)) + "?)"

    def suites(self) -> list[str]:
        return sorted({t.suite for t in self.tasks.values()})

    def check_suite(self, suite: str) -> None:
        """Raise a clear error (with a did-you-mean) unless some task, even a broken one, is in ``suite``."""
        if suite in self.suites() or any(b.suite == suite for b in self.broken):
            return
        close = difflib.get_close_matches(suite, self.suites(), n=3, cutoff=0.6)
        hint = " (did you mean " + " or ".join(map(repr, close)) + "?)" if close else ""
        raise SeebenchError(f"unknown suite {suite!r}{hint}; known: {', '.join(self.suites())}")

    def select(self, selector: str) -> list[TaskSpec]:
        """Tasks for ``--tasks``: ``all``, a suite name, or comma-separated task names."""
        selector = selector.strip()
        if selector == "all":
            return sorted(self.tasks.values(), key=lambda t: (t.suite, t.name))
        selected: list[TaskSpec] = []
        for part in (p.strip() for p in selector.split(",")):
            if not part:
                continue
            if part in self.tasks:
                chosen = [self.tasks[part]]
            elif part in self.suites():
                chosen = sorted(
                    (t for t in self.tasks.values() if t.suite == part), key=lambda t: t.name
                )
            else:
                chosen = [self.get(part)]  # raises with the reason
            selected.extend(t for t in chosen if t not in selected)
        if not selected:
            raise SeebenchError(f"--tasks {selector!r} selects no task")
        return selected


def _task_files(directory: Path) -> list[Path]:
    files = [*directory.rglob("*.yaml"), *directory.rglob("*.yml")]
    return sorted(p for p in files if not p.name.startswith("_"))


#: Where tasks of an ``--include-path`` directory come from (``origins``, ``tasks list``).
INCLUDE_PATH_ORIGIN = "--include-path"

_include_paths: tuple[Path, ...] = ()


def set_include_paths(paths: Iterable[Path | str]) -> None:
    """Use these directories of task YAMLs (``--include-path``) besides the registered ones,
    for the rest of the process; a path that is not a directory is a one-line error."""
    global _include_paths
    checked = []
    for raw in paths:
        path = Path(raw).expanduser()
        if not path.is_dir():
            raise SeebenchError(f"--include-path {raw}: not a directory")
        checked.append(path.resolve())
    _include_paths = tuple(dict.fromkeys(checked))
    get_task_index.cache_clear()


def build_task_index(registry: Registry, include_paths: Iterable[Path] = ()) -> TaskIndex:
    """Load every task YAML from every registered directory, then from ``include_paths``."""
    tasks: dict[str, TaskSpec] = {}
    origins: dict[str, str] = {}
    broken: list[BrokenTask] = []
    included = [TaskDirEntry(Path(p), None, INCLUDE_PATH_ORIGIN) for p in include_paths]
    for entry in [*registry.task_dirs, *included]:
        for path in _task_files(entry.path):
            try:
                spec = load_task(path, registry, default_suite=entry.suite)
            except TaskSpecError as exc:
                broken.append(
                    BrokenTask(path, path.stem, entry.suite, entry.plugin, tuple(exc.problems))
                )
                continue
            except Exception as exc:  # a validator bug must not hide the other tasks
                problem = f"{path}: could not be loaded: {type(exc).__name__}: {exc}".replace(
                    "\n", " "
                )
                broken.append(BrokenTask(path, path.stem, entry.suite, entry.plugin, (problem,)))
                continue
            if spec.name in tasks:
                other = tasks[spec.name].path
                broken.append(
                    BrokenTask(
                        path,
                        spec.name,
                        spec.suite,
                        entry.plugin,
                        (f"{path}: name: task {spec.name!r} is already defined in {other}",),
                    )
                )
                continue
            tasks[spec.name] = spec
            origins[spec.name] = entry.plugin
    return TaskIndex(tasks, tuple(broken), origins)


@functools.cache
def get_task_index() -> TaskIndex:
    """The task index of the process-wide registry (and of :func:`set_include_paths`)."""
    from seebench.plugin_manager import get_registry

    return build_task_index(get_registry(), _include_paths)
