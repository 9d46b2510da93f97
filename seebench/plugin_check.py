"""``seebench plugins check``: what a plugin author runs before publishing.

:func:`check_plugin` loads one plugin (an installed distribution, a project folder with a
``pyproject.toml``, or a module file) next to the built-ins, the way users' seebench will,
and reports each problem with what to fix: it imports the plugin, registers it, loads every
object it registered by import path, validates its tasks, checks its metrics' directions and
its option schemas, and runs a smoke evaluation of each of its tasks on a few items with a
model that needs no weights (``majority``, else ``null``).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.plugin_problems import one_line
from seebench.registry import Registry

#: the models tried, in order, for the smoke evaluation (the first that applies is used)
SMOKE_MODELS = ("majority", "null")
#: name parts that say a smaller value is better
LOWER_IS_BETTER_WORDS = frozenset(
    {"error", "errors", "loss", "distance", "mae", "mse", "rmse", "wer", "cer", "perplexity"}
    | {"latency", "cost", "invalid", "regret", "time", "seconds"}
)


@dataclass(frozen=True)
class Finding:
    """One line of a check: ``level`` is ``ok``, ``warn`` or ``fail``; ``fix`` says what to do."""

    level: str
    subject: str
    message: str
    fix: str = ""

    def line(self) -> str:
        fix = f" -> {self.fix}" if self.fix else ""
        return f"{self.level.upper():<4}  {self.subject}: {self.message}{fix}"


@dataclass
class CheckReport:
    """Everything :func:`check_plugin` found; ``ok`` unless some finding is a failure."""

    target: str
    plugins: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not any(f.level == "fail" for f in self.findings)

    def add(self, level: str, subject: str, message: str, fix: str = "") -> None:
        self.findings.append(Finding(level, subject, message, fix))

    def lines(self) -> list[str]:
        fails = sum(f.level == "fail" for f in self.findings)
        warns = sum(f.level == "warn" for f in self.findings)
        verdict = "passed" if self.ok else "FAILED"
        summary = f"{self.target}: {verdict} ({fails} to fix, {warns} warnings)"
        return [*(f.line() for f in self.findings), summary]


@dataclass(frozen=True)
class _Entry:
    """One ``seebench`` entry point to check: its name and module, and where it comes from."""

    name: str
    module: str
    distribution: str
    version: str


def check_plugin(target: str, items: int = 5) -> CheckReport:
    """Check the plugin ``target`` (a distribution name, a project folder or a ``.py`` file);
    the smoke evaluation uses ``items`` test items per task."""
    report = CheckReport(target)
    try:
        entries, folder = _resolve(target, report)
    except SeebenchError as exc:
        report.add("fail", "plugin", str(exc), "name an installed distribution, a folder or a file")
        return report
    with _on_path(folder):
        modules = _import(entries, report)
        if not modules:
            return report
        registry = _register(modules, report)
        if registry is None:
            return report
        names = {name for _, name in modules}
        report.plugins = sorted(names)
        _check_registrations(registry, names, report)
        _check_tasks_and_smoke(registry, names, items, report)
    return report


# -- finding the plugin ----------------------------------------------------------------------


def _resolve(target: str, report: CheckReport) -> tuple[list[_Entry], Path | None]:
    path = Path(target)
    if path.is_dir():
        return _project_entries(path, report), path.resolve()
    if path.is_file() and path.suffix == ".py":
        return [_Entry(path.stem, path.stem, f"<{path.name}>", "0")], path.parent.resolve()
    return _distribution_entries(target), None


def _project_entries(folder: Path, report: CheckReport) -> list[_Entry]:
    pyproject = folder / "pyproject.toml"
    try:
        project_file = tomllib.loads(safe_files.read_text(pyproject, safe_files.TEXT_MAX_BYTES))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise SeebenchError(f"{pyproject}: cannot read it: {one_line(exc)}") from None
    project = project_file.get("project", {})
    declared = project.get("entry-points", {}).get("seebench", {})
    if not isinstance(declared, dict) or not declared:
        raise SeebenchError(f"{pyproject}: no [project.entry-points.seebench] table")
    if "build-system" not in project_file:
        report.add(
            "warn",
            "packaging",
            f"{pyproject} names no [build-system]",
            "name one (hatchling, as `seebench new plugin` does) so pip builds what you test",
        )
    dist, version = str(project.get("name", folder.name)), str(project.get("version", "0"))
    return [_Entry(str(n), str(v).partition(":")[0], dist, version) for n, v in declared.items()]


def _distribution_entries(name: str) -> list[_Entry]:
    from seebench.plugin_entry_points import entry_points

    wanted = _normalise(name)
    found = [
        _Entry(ep.name, ep.value.partition(":")[0], ep.dist_name or name, ep.dist_version or "?")
        for ep in entry_points("seebench")
        if ep.dist_name is not None and _normalise(ep.dist_name) == wanted
    ]
    if not found:
        raise SeebenchError(
            f"{name!r} is not a folder, a .py file or an installed distribution with a "
            "'seebench' entry point"
        )
    return found


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-")


@contextlib.contextmanager
def _on_path(folder: Path | None) -> Iterator[None]:
    """``folder`` (and its ``src/``) first on ``sys.path`` meanwhile."""
    added = [str(p) for p in (folder, folder / "src" if folder else None) if p and p.is_dir()]
    sys.path[:0] = added
    try:
        yield
    finally:
        for entry in added:
            with contextlib.suppress(ValueError):
                sys.path.remove(entry)


# -- importing and registering ---------------------------------------------------------------


def _import(entries: list[_Entry], report: CheckReport) -> list[tuple[Any, str]]:
    modules = []
    for entry in entries:
        try:
            modules.append((importlib.import_module(entry.module), entry.name))
        except Exception as exc:
            report.add(
                "fail",
                f"import {entry.module}",
                one_line(exc),
                "fix the import: an installed plugin that cannot import is left out",
            )
            continue
        report.add("ok", f"import {entry.module}", f"{entry.distribution} {entry.version}")
    return modules


def _register(modules: list[tuple[Any, str]], report: CheckReport) -> Registry | None:
    from seebench.plugin_manager import build_registry, create_plugin_manager

    try:
        registry = build_registry(create_plugin_manager(tuple(modules), entry_points=False))
    except SeebenchError as exc:
        report.add("fail", "register", one_line(exc).removeprefix("PluginError: "), _REGISTER_FIX)
        return None
    report.add("ok", "register", "hooks checked, every registration accepted")
    return registry


_REGISTER_FIX = "see the hook's signature in docs/plugins.md#hooks"


def registrations(registry: Registry, plugins: set[str]) -> dict[str, list[str]]:
    """What ``plugins`` registered, by kind (``metrics``, ``methods``...), sorted."""
    tables: dict[str, dict[str, Any]] = {
        "task types": registry.task_types,
        "metrics": registry.metrics,
        "scorers": registry.scorers,
        "methods": registry.methods,
        "models": registry.models,
        "data readers": registry.data_readers,
        "data files": registry.data_files,
        "prepare steps": registry.prepare_steps,
        "exporters": registry.exporters,
        "suites": registry.suites,
    }
    found = {
        kind: sorted(name for name, entry in table.items() if entry.plugin in plugins)
        for kind, table in tables.items()
    }
    found["task dirs"] = [str(d.path) for d in registry.task_dirs if d.plugin in plugins]
    return {kind: names for kind, names in found.items() if names}


# -- what it registered ----------------------------------------------------------------------


def _check_registrations(registry: Registry, plugins: set[str], report: CheckReport) -> None:
    listed = registrations(registry, plugins)
    if not listed:
        report.add("warn", "register", "the plugin registers nothing", "implement a hook")
    for kind, names in listed.items():
        if kind != "task dirs":
            report.add("ok", kind, ", ".join(names))
    _check_loads(registry, plugins, report)
    _check_metric_directions(registry, plugins, report)
    _check_schemas(registry, plugins, report)


def _mine(table: dict[str, Any], plugins: set[str]) -> list[tuple[str, Any]]:
    return [(name, entry) for name, entry in sorted(table.items()) if entry.plugin in plugins]


def _check_loads(registry: Registry, plugins: set[str], report: CheckReport) -> None:
    """Every object registered by import path imports (users would fail at first use)."""
    tables: dict[str, dict[str, Any]] = {
        "task type": registry.task_types,
        "metric": registry.metrics,
        "scorer": registry.scorers,
        "method": registry.methods,
        "model": registry.models,
        "data reader": registry.data_readers,
        "prepare step": registry.prepare_steps,
        "exporter": registry.exporters,
    }
    for kind, table in tables.items():
        for name, entry in _mine(table, plugins):
            try:
                entry.load()
            except Exception as exc:
                report.add(
                    "fail", f"{kind} {name}", f"cannot be loaded: {one_line(exc)}", _LOAD_FIX
                )


_LOAD_FIX = "register an import path 'package.module:attr' that exists in the package"


def _check_metric_directions(registry: Registry, plugins: set[str], report: CheckReport) -> None:
    for name, entry in _mine(registry.metrics, plugins):
        if not isinstance(entry.higher_is_better, bool):
            report.add("fail", f"metric {name}", "higher_is_better is not True or False")
            continue
        words = set(name.lower().replace("-", "_").split("_"))
        hint = sorted(words & LOWER_IS_BETTER_WORDS)
        if entry.higher_is_better and hint:
            report.add(
                "warn",
                f"metric {name}",
                f"registered with higher_is_better=True, but {hint[0]!r} in its name suggests "
                "lower is better",
                "pass higher_is_better=False if so (it orders every leaderboard)",
            )
        if not entry.description:
            report.add("warn", f"metric {name}", "no description", _DESCRIBE)


_DESCRIBE = "pass description=... (seebench lists it)"


def _check_schemas(registry: Registry, plugins: set[str], report: CheckReport) -> None:
    """Option schemas (methods, scorers), step schemas and task-type fragments are JSON Schemas."""
    schemas: list[tuple[str, Any]] = []
    for kind, table in (("method", registry.methods), ("scorer", registry.scorers)):
        for name, entry in _mine(table, plugins):
            for option, schema in (entry.options or {}).items():
                schemas.append((f"{kind} {name} option {option!r}", schema))
    for name, entry in _mine(registry.prepare_steps, plugins):
        if entry.schema is not None:
            schemas.append((f"prepare step {name} schema", entry.schema))
    for name, entry in _mine(registry.task_types, plugins):
        if entry.schema:
            schemas.append((f"task type {name} schema", {"type": "object", **entry.schema}))
    for subject, schema in schemas:
        problem = _schema_problem(schema)
        if problem:
            report.add("fail", subject, f"not a valid JSON Schema: {problem}", _SCHEMA_FIX)


_SCHEMA_FIX = "write a JSON Schema (draft 2020-12), e.g. {'type': 'integer', 'minimum': 1}"


def _schema_problem(schema: Any) -> str | None:
    from jsonschema import exceptions, validators

    if not isinstance(schema, dict | bool):
        return f"a {type(schema).__name__}, not a mapping"
    try:
        validators.validator_for(schema, default=validators.Draft202012Validator).check_schema(
            schema
        )
    except exceptions.SchemaError as exc:
        return " ".join(str(exc.message).split())
    return None


# -- tasks and the smoke evaluation ----------------------------------------------------------


def _check_tasks_and_smoke(
    registry: Registry, plugins: set[str], items: int, report: CheckReport
) -> None:
    from seebench.tasks.index import build_task_index

    index = build_task_index(registry, [])
    mine = sorted(name for name, plugin in index.origins.items() if plugin in plugins)
    for broken in index.broken:
        if broken.plugin in plugins:
            for problem in broken.problems:
                report.add("fail", f"task file {broken.path.name}", problem, _TASK_FIX)
    if not mine:
        if registrations(registry, plugins).get("task dirs"):
            report.add("warn", "tasks", "the registered task folders hold no valid task")
        return
    report.add("ok", "tasks", f"{len(mine)} valid: {', '.join(mine)}")
    with tempfile.TemporaryDirectory(prefix="seebench-check-") as out:
        for name in mine:
            _smoke(registry, index, name, items, Path(out), report)


_TASK_FIX = "fix the file ('seebench tasks validate FOLDER' lists every problem)"


def _smoke(
    registry: Registry, index: Any, task: str, items: int, out: Path, report: CheckReport
) -> None:
    from seebench import EvalConfig, run_eval

    reasons = []
    for model in (m for m in SMOKE_MODELS if m in registry.models):
        config = EvalConfig(
            model, task, output=out, limit=items, progress=False, bootstrap=0, force=True
        )
        try:
            quiet = io.StringIO()  # the run's summary and caveats: the finding says enough
            with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
                (outcome,) = run_eval(config, registry, index)
        except Exception as exc:
            report.add("fail", f"smoke {task}", f"{model}: {one_line(exc)}", _SMOKE_FIX)
            return
        if outcome.status in ("ok", "cached"):
            shown = ", ".join(f"{k}={v:.3g}" for k, v in list(outcome.metrics.items())[:3])
            report.add(
                "ok", f"smoke {task}", f"{model}/{outcome.method} on {outcome.n} items: {shown}"
            )
            return
        if outcome.status == "failed":
            report.add("fail", f"smoke {task}", f"{model}: {outcome.reason}", _SMOKE_FIX)
            return
        reasons.append(f"{model}: {outcome.status} ({outcome.reason})")
    report.add(
        "warn",
        f"smoke {task}",
        "no weight-free model could evaluate it: " + "; ".join(reasons),
        "check the task's data is shipped (or fetched) and its type has a baseline answer",
    )


_SMOKE_FIX = "run 'seebench eval --model majority --tasks TASK --limit 5' for the full error"
