"""The registry: everything plugins register, collected once and looked up by name.

Each registered item remembers the plugin that registered it, so errors can blame it.
Objects may be registered as import paths (``"package.module:attr"``) and are imported only
when first used (:func:`load_object`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.errors import PluginError, did_you_mean
from seebench.registry_entries import (
    BACKEND_PLACEMENTS,
    BackendEntry,
    DataFileEntry,
    FunctionEntry,
    MethodEntry,
    MetricEntry,
    ModelEntry,
    ScorerEntry,
    SuiteEntry,
    TaskDirEntry,
    TaskTypeEntry,
    load_object,
    option_problems,
)

NAME_PATTERN = r"^[a-z0-9][a-z0-9_.\-]*[a-z0-9:]?$"


@dataclass
class Registry:
    """Everything the loaded plugins registered, keyed by name."""

    task_types: dict[str, TaskTypeEntry] = field(default_factory=dict)
    task_dirs: list[TaskDirEntry] = field(default_factory=list)
    metrics: dict[str, MetricEntry] = field(default_factory=dict)
    scorers: dict[str, ScorerEntry] = field(default_factory=dict)
    methods: dict[str, MethodEntry] = field(default_factory=dict)
    models: dict[str, ModelEntry] = field(default_factory=dict)
    backends: dict[str, BackendEntry] = field(default_factory=dict)
    data_readers: dict[str, FunctionEntry] = field(default_factory=dict)
    data_files: dict[str, DataFileEntry] = field(default_factory=dict)
    prepare_steps: dict[str, FunctionEntry] = field(default_factory=dict)
    exporters: dict[str, FunctionEntry] = field(default_factory=dict)
    suites: dict[str, SuiteEntry] = field(default_factory=dict)
    #: plugin name -> ``dist==version`` (recorded in results and run hashes)
    distributions: dict[str, str] = field(default_factory=dict)
    #: ``on_unit_finished`` implementations: (plugin name, function), in call order
    observers: list[tuple[str, Callable[..., Any]]] = field(default_factory=list)
    #: third-party plugins left out because they failed to load, as run records store them
    #: (``plugin``, ``distribution``, ``version``, ``error``, ``tasks``: the task names it
    #: ships, when its installed files tell)
    plugin_problems: list[dict[str, Any]] = field(default_factory=list)

    def missing_plugins(self, selector: str) -> list[dict[str, Any]]:
        """The left-out plugins a run with ``--tasks selector`` would have included: every
        one for ``all``, else those shipping a task or suite the selector names. A run
        record stores this list, so a result made without a broken plugin says so."""
        from seebench.plugin_problems import concerns

        return [p for p in self.plugin_problems if concerns(p, selector)]

    def notify_unit_finished(self, event: Any) -> None:
        """Call every ``on_unit_finished`` observer; failures are logged, never fatal."""
        import logging

        for plugin, function in self.observers:
            try:
                function(event=event)
            except Exception as exc:  # observers must not break a run
                logging.getLogger("seebench").warning(
                    "observer plugin %r failed in on_unit_finished: %s: %s",
                    plugin,
                    type(exc).__name__,
                    exc,
                )

    # -- lookups with clear errors ----------------------------------------------------------

    def metric(self, name: str) -> MetricEntry:
        return _lookup(self.metrics, name, "metric")

    def method(self, name: str) -> MethodEntry:
        return _lookup(self.methods, name, "method")

    def scorer(self, name: str) -> ScorerEntry:
        return _lookup(self.scorers, name, "scorer")

    def task_type(self, name: str) -> TaskTypeEntry:
        return _lookup(self.task_types, name, "task type")

    def data_reader(self, name: str) -> FunctionEntry:
        return _lookup(self.data_readers, name, "data format")

    def prepare_step(self, name: str) -> FunctionEntry:
        return _lookup(self.prepare_steps, name, "preparation step")

    def exporter(self, name: str) -> FunctionEntry:
        return _lookup(self.exporters, name, "exporter")

    def suite(self, name: str) -> SuiteEntry:
        return _lookup(self.suites, name, "suite")

    def backend(self, name: str) -> BackendEntry:
        return _lookup(self.backends, name, "model backend")

    def model_entry(self, spec: str) -> ModelEntry:
        """The entry that handles a ``--model`` spec: exact name first, then longest prefix."""
        if spec in self.models and not self.models[spec].prefix:
            return self.models[spec]
        prefixed = [e for e in self.models.values() if e.prefix and spec.startswith(e.name)]
        if prefixed:
            return max(prefixed, key=lambda e: len(e.name))
        fallback = self.models.get("")
        if fallback is not None:
            return fallback
        raise PluginError(
            f"unknown model {spec!r}; known: {', '.join(sorted(self.models)) or '(none)'}"
        )


def _lookup(table: dict[str, Any], name: str, what: str) -> Any:
    try:
        return table[name]
    except KeyError:
        known = ", ".join(sorted(table)) or "(none)"
        raise PluginError(
            f"unknown {what} {name!r}{did_you_mean(name, table)}; known: {known}"
        ) from None


def _check_name(name: Any, what: str, plugin: str, allow_empty: bool = False) -> str:
    if not isinstance(name, str) or (not name and not allow_empty):
        raise PluginError(f"plugin {plugin!r} registered a {what} with invalid name {name!r}")
    return name


def _check_unique(table: dict[str, Any], name: str, what: str, plugin: str) -> None:
    if name in table:
        other = table[name].plugin
        raise PluginError(
            f"plugin {plugin!r} registered {what} {name!r}, already registered by {other!r}"
        )


def _check_options(options: Any, name: str, plugin: str) -> dict[str, Any] | None:
    if options is not None and not (
        isinstance(options, dict) and all(isinstance(v, dict) for v in options.values())
    ):
        raise PluginError(
            f"plugin {plugin!r}: options of {name!r} must map option names to JSON Schemas"
        )
    return options


def _tuple(values: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(values or ())


class RegistryBuilder:
    """Creates the ``register`` callbacks handed to each plugin's registration hooks."""

    def __init__(self, registry: Registry):
        self.registry = registry

    def task_type(self, plugin: str) -> Callable[..., None]:
        def register(
            name: str,
            impl: Any,
            *,
            schema: dict[str, Any] | None = None,
            description: str = "",
        ) -> None:
            _check_name(name, "task type", plugin)
            _check_unique(self.registry.task_types, name, "task type", plugin)
            fragment = schema or {}
            if not isinstance(fragment, dict) or not set(fragment) <= {"properties", "required"}:
                raise PluginError(
                    f"plugin {plugin!r}: schema of task type {name!r} must be a dict with "
                    "'properties' and optionally 'required'"
                )
            self.registry.task_types[name] = TaskTypeEntry(
                name, impl, fragment, description, plugin
            )

        return register

    def task_dir(self, plugin: str) -> Callable[..., None]:
        def register(path: str | Path, *, suite: str | None = None) -> None:
            p = Path(path)
            if not p.is_dir():
                raise PluginError(
                    f"plugin {plugin!r} registered task directory {p} that does not exist"
                )
            self.registry.task_dirs.append(TaskDirEntry(p, suite, plugin))

        return register

    def metric(self, plugin: str) -> Callable[..., None]:
        def register(
            name: str,
            func: Any,
            *,
            description: str = "",
            task_types: Iterable[str] = (),
            higher_is_better: bool = True,
            target_kinds: Iterable[str] = (),
            inputs: str = "predictions",
            scorer: str | None = None,
        ) -> None:
            _check_name(name, "metric", plugin)
            _check_unique(self.registry.metrics, name, "metric", plugin)
            if inputs not in ("predictions", "scores"):
                raise PluginError(
                    f"plugin {plugin!r}: metric {name!r}: inputs must be 'predictions' or 'scores'"
                )
            self.registry.metrics[name] = MetricEntry(
                name,
                func,
                description,
                _tuple(task_types),
                bool(higher_is_better),
                plugin,
                _tuple(target_kinds),
                inputs,
                scorer,
            )

        return register

    def method(self, plugin: str) -> Callable[..., None]:
        def register(
            name: str,
            factory: Any,
            *,
            description: str = "",
            task_types: Iterable[str] = (),
            target_kinds: Iterable[str] = (),
            options: dict[str, Any] | None = None,
        ) -> None:
            _check_name(name, "method", plugin)
            _check_unique(self.registry.methods, name, "method", plugin)
            self.registry.methods[name] = MethodEntry(
                name,
                factory,
                description,
                _tuple(task_types),
                plugin,
                _tuple(target_kinds),
                _check_options(options, name, plugin),
            )

        return register

    def scorer(self, plugin: str) -> Callable[..., None]:
        def register(
            name: str, factory: Any, *, description: str = "", options: dict[str, Any] | None = None
        ) -> None:
            _check_name(name, "scorer", plugin)
            _check_unique(self.registry.scorers, name, "scorer", plugin)
            self.registry.scorers[name] = ScorerEntry(
                name, factory, description, plugin, _check_options(options, name, plugin)
            )

        return register

    def model(self, plugin: str) -> Callable[..., None]:
        def register(
            name: str,
            resolver: Any,
            *,
            description: str = "",
            default_method: str,
            prefix: bool = False,
        ) -> None:
            _check_name(name, "model", plugin, allow_empty=prefix)
            _check_unique(self.registry.models, name, "model", plugin)
            self.registry.models[name] = ModelEntry(
                name, resolver, description, default_method, bool(prefix), plugin
            )

        return register

    def backend(self, plugin: str) -> Callable[..., None]:
        def register(
            name: str,
            factory: Any,
            *,
            description: str = "",
            extra: str | None = None,
            requires: Iterable[str] = (),
            options: dict[str, Any] | None = None,
            placement: str = "local",
        ) -> None:
            _check_name(name, "model backend", plugin)
            _check_unique(self.registry.backends, name, "model backend", plugin)
            if placement not in BACKEND_PLACEMENTS:
                raise PluginError(
                    f"plugin {plugin!r}: model backend {name!r}: placement {placement!r} is "
                    f"not one of {', '.join(BACKEND_PLACEMENTS)}"
                )
            if isinstance(requires, str):
                requires = (requires,)
            self.registry.backends[name] = BackendEntry(
                name,
                factory,
                description,
                plugin,
                extra,
                _tuple(requires),
                _check_options(options, name, plugin) or {},
                placement,
            )

        return register

    def _function(
        self, table: dict[str, FunctionEntry], what: str, plugin: str
    ) -> Callable[..., None]:
        def register(
            name: str, func: Any, *, description: str = "", schema: dict | None = None
        ) -> None:
            _check_name(name, what, plugin)
            _check_unique(table, name, what, plugin)
            table[name] = FunctionEntry(name, func, description, plugin, schema)

        return register

    def data_file(self, plugin: str) -> Callable[..., None]:
        def register(name: str, sha256: str, *, file_name: str, description: str = "") -> None:
            _check_name(name, "data file", plugin)
            _check_unique(self.registry.data_files, name, "data file", plugin)
            if not (isinstance(sha256, str) and re.fullmatch(r"[0-9a-f]{64}", sha256)):
                raise PluginError(
                    f"plugin {plugin!r} registered data file {name!r} with sha256 {sha256!r}: "
                    "expected 64 lower-case hex digits"
                )
            self.registry.data_files[name] = DataFileEntry(
                name, sha256, str(file_name), description, plugin
            )

        return register

    def data_reader(self, plugin: str) -> Callable[..., None]:
        return self._function(self.registry.data_readers, "data format", plugin)

    def prepare_step(self, plugin: str) -> Callable[..., None]:
        return self._function(self.registry.prepare_steps, "preparation step", plugin)

    def exporter(self, plugin: str) -> Callable[..., None]:
        return self._function(self.registry.exporters, "exporter", plugin)

    def suite(self, plugin: str) -> Callable[..., None]:
        def register(
            name: str,
            *,
            description: str = "",
            task_families: Mapping[str, str] | None = None,
            model_groups: Mapping[str, str] | None = None,
            compare_task_types: Iterable[str] = (),
            task_groups: Mapping[str, Any] | None = None,
        ) -> None:
            _check_name(name, "suite", plugin)
            if task_groups is not None and not isinstance(task_groups, Mapping):
                raise PluginError(
                    f"plugin {plugin!r}: suite {name!r}: task_groups must be a mapping "
                    "{'groups': {...}} (see seebench.scoring.groups)"
                )
            _check_unique(self.registry.suites, name, "suite", plugin)
            families = _string_map(task_families, f"suite {name!r}: task_families", plugin)
            groups = _string_map(model_groups, f"suite {name!r}: model_groups", plugin)
            if isinstance(compare_task_types, str):
                compare_task_types = (compare_task_types,)
            types = _tuple(compare_task_types)
            unknown = [t for t in types if t not in self.registry.task_types]
            if unknown:
                raise PluginError(
                    f"plugin {plugin!r}: suite {name!r} compares unknown task type(s) "
                    f"{', '.join(map(repr, unknown))}; known: {', '.join(sorted(self.registry.task_types))}"
                )
            self.registry.suites[name] = SuiteEntry(
                name, description, families, groups, types, plugin, task_groups
            )

        return register


def _string_map(value: Mapping[str, str] | None, what: str, plugin: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        raise PluginError(f"plugin {plugin!r}: {what} must map names (str) to labels (str)")
    return dict(value)


__all__ = [
    "BackendEntry",
    "FunctionEntry",
    "MethodEntry",
    "MetricEntry",
    "ModelEntry",
    "Registry",
    "RegistryBuilder",
    "ScorerEntry",
    "SuiteEntry",
    "TaskDirEntry",
    "TaskTypeEntry",
    "load_object",
    "option_problems",
]
