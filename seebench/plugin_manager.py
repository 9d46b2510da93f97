"""Loading plugins: built-ins first, then third-party ones from the ``seebench`` entry points.

``SEEBENCH_LOAD_PLUGINS`` (a comma-separated list of distribution names) restricts which
third-party distributions are loaded; set it to an empty string to load none. Built-in plugins
are always loaded unless disabled. ``SEEBENCH_DISABLE_PLUGINS`` (comma-separated) disables
plugins by name, built-in or not: a built-in's name (``seebench.builtin.selu``), short name
(``selu``) or module (``seebench.suites.selu.plugin``), an entry-point name, a distribution
name or a ``SEEBENCH_PLUGINS`` module (like pytest's ``-p no:NAME``); a plugin's declared
sub-plugins (``SEEBENCH_SUBPLUGINS``) go with it. ``SEEBENCH_PLUGINS`` (a comma-separated list of importable
module names) loads extra plugins without packaging them, as ``PYTEST_PLUGINS`` does for
pytest. ``SEEBENCH_TRACE_PLUGINS=1`` prints every hook call and registration to standard error.
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pluggy

from seebench import hookspecs
from seebench.errors import PluginError
from seebench.hookspecs import hookimpl  # noqa: F401  (re-exported for older plugins)
from seebench.plugin_problems import PluginProblem, known_tasks, one_line, warn
from seebench.registry import Registry, RegistryBuilder

if TYPE_CHECKING:
    import click

    from seebench.tasks.index import TaskIndex

ENTRY_POINT_GROUP = "seebench"
LOAD_PLUGINS_ENV = "SEEBENCH_LOAD_PLUGINS"
TRACE_PLUGINS_ENV = "SEEBENCH_TRACE_PLUGINS"
EXTRA_PLUGINS_ENV = "SEEBENCH_PLUGINS"
DISABLE_PLUGINS_ENV = "SEEBENCH_DISABLE_PLUGINS"

#: Built-in plugins, registered exactly like third-party ones (as pytest does): each
#: plugin's name and the module that implements it, in registration order. The names are
#: identities recorded in results (and so in run hashes): they keep their historical
#: ``seebench.builtin.<short>`` form wherever the module lives.
BUILTIN_MODULES: dict[str, str] = {
    "seebench.builtin.task_types": "seebench.tasks.plugin",
    "seebench.builtin.metrics": "seebench.scoring.metrics.plugin",
    "seebench.builtin.data": "seebench.data.plugin",
    "seebench.builtin.baselines": "seebench.methods.baseline.plugin",
    "seebench.builtin.commands": "seebench.cli.plugin",
    "seebench.builtin.classic": "seebench.methods.baseline.classic",
    "seebench.builtin.prompting": "seebench.methods.prompting.plugin",
    "seebench.builtin.backends": "seebench.models.plugin",
    "seebench.builtin.loglik": "seebench.methods.loglik.plugin",
    "seebench.builtin.selu": "seebench.suites.selu.plugin",
    "seebench.builtin.compare": "seebench.leaderboard.plugin",
    "seebench.builtin.finetune": "seebench.methods.finetune.plugin",
    "seebench.builtin.sandbox": "seebench.sandbox.plugin",
    "seebench.builtin.annotation": "seebench.suites.annotation.plugin",
    "seebench.builtin.codegen": "seebench.suites.codegen.plugin",
    "seebench.builtin.judge": "seebench.suites.judge.plugin",
    "seebench.builtin.copilot": "seebench.suites.copilot.plugin",
    "seebench.builtin.study_hint": "seebench.cli.study_hint",
    "seebench.view.plugin": "seebench.view.plugin",
    "seebench.builtin.executors": "seebench.executors.plugin",
    "seebench.trackers.wandb_tracker": "seebench.trackers.wandb_tracker",
    "seebench.trackers.mlflow_tracker": "seebench.trackers.mlflow_tracker",
}
DEFAULT_PLUGINS: tuple[str, ...] = tuple(BUILTIN_MODULES)

#: a plugin module may declare sub-plugins: a tuple of importable module names, registered
#: right after it (named ``<plugin>.<sub>``) and disabled with it
SUBPLUGINS_ATTR = "SEEBENCH_SUBPLUGINS"


@dataclass(frozen=True)
class PluginInfo:
    """What ``seebench plugins`` reports for one plugin."""

    name: str
    distribution: str
    version: str
    builtin: bool
    hooks: tuple[str, ...]
    status: str = "ok"  # "ok", "disabled" or "not loaded: <error>"


def _allowed_distributions() -> set[str] | None:
    raw = os.environ.get(LOAD_PLUGINS_ENV)
    if raw is None:
        return None
    return {_normalise(part) for part in raw.split(",") if part.strip()}


def _normalise(dist_name: str) -> str:
    return dist_name.strip().lower().replace("_", "-")


class _DisabledPlugins:
    """The names in ``SEEBENCH_DISABLE_PLUGINS`` and which of them matched a plugin."""

    def __init__(self) -> None:
        raw = os.environ.get(DISABLE_PLUGINS_ENV, "")
        self.names = {_normalise(part) for part in raw.split(",") if part.strip()}
        self.matched: set[str] = set()

    def match(self, *names: str) -> bool:
        """Whether any of ``names`` (module, short, entry-point or distribution name) is disabled."""
        hits = self.names & {_normalise(name) for name in names}
        self.matched |= hits
        return bool(hits)

    def warn_unmatched(self, known: list[str]) -> None:
        for name in sorted(self.names - self.matched):
            logging.getLogger("seebench").warning(
                "%s: no plugin named %r; built-in: %s", DISABLE_PLUGINS_ENV, name, ", ".join(known)
            )


class SeebenchPluginManager(pluggy.PluginManager):
    """A pluggy manager that remembers which distribution each plugin came from."""

    def __init__(self) -> None:
        super().__init__("seebench")
        self.add_hookspecs(hookspecs)
        self.distributions: dict[str, tuple[str, str]] = {}
        self.disabled: list[str] = []  # plugins not loaded because of SEEBENCH_DISABLE_PLUGINS
        #: third-party plugins left out because they failed (each reported in one line)
        self.problems: list[PluginProblem] = []
        #: plugins whose failure leaves them out instead of stopping seebench (entry points
        #: and ``SEEBENCH_PLUGINS`` modules; built-ins and embedded plugins stay strict)
        self.optional: set[str] = set()

    def load_optional(
        self, load: Callable[[], Any], name: str, dist: str, version: str | None
    ) -> None:
        """Import a third-party plugin (``load()``) and register it; a failure leaves it out
        with one warning line, and a module already loaded under another name is loaded once.
        ``version=None``: the module's ``__version__``."""
        try:
            plugin = load()
        except Exception as exc:  # any import failure of a third-party plugin
            self.leave_out(name, dist, version or "?", f"failed to import: {one_line(exc)}")
            return
        version = version if version is not None else _module_version(plugin)
        other = self.get_name(plugin)
        if other is not None:
            other_dist, _ = self.distributions.get(other, ("?", "?"))
            logging.getLogger("seebench").warning(
                "warning: plugin %r (from %s %s) is the module already loaded as %r (from %s); "
                "it is loaded once",
                name,
                dist,
                version,
                other,
                other_dist,
            )
            return
        if self.has_plugin(name) or self.is_blocked(name):
            logging.getLogger("seebench").warning(
                "warning: plugin %r (from %s %s) is not loaded: another plugin has that name",
                name,
                dist,
                version,
            )
            return
        self.optional.add(name)
        try:
            self.register_plugin(plugin, name, dist, version)
        except PluginError as exc:
            self.leave_out(name, dist, version, str(exc))

    def is_optional(self, name: str) -> bool:
        """Whether ``name`` (or the plugin it is a sub-plugin of) may be left out on failure."""
        return any(name == o or name.startswith(o + ".") for o in self.optional)

    def leave_out(self, name: str, dist: str, version: str, error: str) -> PluginProblem:
        """Unregister plugin ``name`` and its sub-plugins, record why and warn in one line."""
        for registered in [n for n, _ in self.list_name_plugin() if n and _owned_by(n, name)]:
            self.unregister(name=registered)
            self.distributions.pop(registered, None)
        error = _without_plugin_prefix(error)
        tasks = known_tasks(dist) if not dist.startswith("<") else ()
        problem = PluginProblem(name, dist, version, error, tasks)
        self.problems.append(problem)
        warn(problem)
        return problem

    def owner(self, plugin_name: str) -> str:
        """The optional plugin ``plugin_name`` belongs to (itself or its parent)."""
        return next(o for o in self.optional if _owned_by(plugin_name, o))

    def register_plugin(self, plugin: Any, name: str, dist: str, version: str) -> None:
        """Register ``plugin`` (then its declared sub-plugins) and turn pluggy's validation
        errors into a clear message."""
        self._register_one(plugin, name, dist, version)
        for module_name in _subplugin_names(plugin, name, dist, version):
            try:
                module = importlib.import_module(module_name)
            except Exception as exc:
                raise PluginError(
                    f"plugin {name!r} (from {dist} {version}): sub-plugin {module_name!r} "
                    f"failed to import: {type(exc).__name__}: {exc}"
                ) from None
            self.register_plugin(
                module, f"{name}.{subplugin_short_name(module_name)}", dist, version
            )

    def _register_one(self, plugin: Any, name: str, dist: str, version: str) -> None:
        other = self.get_name(plugin)
        if other is not None:
            raise PluginError(
                f"plugin {name!r} (from {dist} {version}) is the object already loaded as "
                f"{other!r}; load it once"
            )
        if self.has_plugin(name) or self.is_blocked(name):
            raise PluginError(
                f"plugin {name!r} (from {dist} {version}) could not be registered: "
                "another plugin has that name"
            )
        try:
            self.register(plugin, name=name)
        except pluggy.PluginValidationError as exc:
            raise PluginError(
                f"plugin {name!r} (from {dist} {version}) is invalid: {exc}"
            ) from None
        except ValueError as exc:
            raise PluginError(
                f"plugin {name!r} (from {dist}) could not be registered: {exc}"
            ) from None
        self.distributions[name] = (dist, version)

    def check_hooks(self) -> None:
        """Fail on implementations of hooks that do not exist (typos), naming the plugin; an
        optional plugin with such a typo is left out instead."""
        problems = []
        for name, message in self._unknown_hook_impls():
            if self.is_optional(name) and self.has_plugin(name):
                owner = self.owner(name)
                dist, version = self.distributions.get(owner, ("?", "?"))
                self.leave_out(owner, dist, version, message)
            elif not self.is_optional(name):
                problems.append(message)
        if problems:
            raise PluginError("\n".join(problems))

    def _unknown_hook_impls(self) -> list[tuple[str, str]]:
        """``(plugin name, message)`` of every implementation of a hook that does not exist."""
        problems = []
        for name, hook_caller in vars(self.hook).items():
            if name.startswith("_") or not isinstance(hook_caller, pluggy.HookCaller):
                continue
            if hook_caller.spec is not None:
                continue
            for impl in hook_caller.get_hookimpls():
                if impl.optionalhook:
                    continue
                dist, version = self.distributions.get(impl.plugin_name, ("?", "?"))
                problems.append(
                    (
                        impl.plugin_name,
                        f"plugin {impl.plugin_name!r} (from {dist} {version}) implements unknown "
                        f"hook {name!r}; known hooks: {', '.join(hookspecs._all_hook_names())}",
                    )
                )
        return problems


def _owned_by(name: str, owner: str) -> bool:
    return name == owner or name.startswith(owner + ".")


_PLUGIN_PREFIX = re.compile(r"^plugin '[^']*' \(from [^)]*\):? ")


def _without_plugin_prefix(error: str) -> str:
    """``plugin 'x' (from d 1.0) is invalid: ...`` -> ``is invalid: ...`` (the warning line
    names the plugin already), on one line."""
    return " ".join(_PLUGIN_PREFIX.sub("", error, count=1).split())


def _subplugin_names(plugin: Any, name: str, dist: str, version: str) -> tuple[str, ...]:
    declared = getattr(plugin, SUBPLUGINS_ATTR, ())
    if isinstance(declared, str) or not all(isinstance(m, str) for m in declared):
        raise PluginError(
            f"plugin {name!r} (from {dist} {version}): {SUBPLUGINS_ATTR} must be a tuple of "
            f"module names, got {declared!r}"
        )
    return tuple(declared)


def subplugin_short_name(module_name: str) -> str:
    """``seebench.suites.copilot.doc.plugin`` -> ``doc``; ``pkg.extra`` -> ``extra``."""
    parts = module_name.split(".")
    return parts[-2] if parts[-1] == "plugin" and len(parts) > 1 else parts[-1]


def _seebench_version() -> str:
    from seebench import __version__

    return __version__


def _module_version(plugin: Any) -> str:
    """A plugin module's ``__version__`` when it is not installed as a distribution."""
    return str(getattr(plugin, "__version__", "0"))


def _warn_unknown_allowed(allowed: set[str], eps: Any) -> None:
    """``SEEBENCH_LOAD_PLUGINS`` names distributions; say so when a name matches none."""
    dists = {_normalise(ep.dist_name) for ep in eps if ep.dist_name is not None}
    names = {_normalise(ep.name): ep for ep in eps}
    for name in sorted(allowed - dists):
        hint = ""
        if name in names and names[name].dist_name is not None:
            hint = f"; {name!r} is an entry-point name of distribution {names[name].dist_name!r}: use that"
        elif dists:
            from seebench.errors import did_you_mean

            hint = did_you_mean(name, dists)
        logging.getLogger("seebench").warning(
            "%s: no installed plugin distribution named %r%s", LOAD_PLUGINS_ENV, name, hint
        )


def _load_entry_points(pm: SeebenchPluginManager, disabled: _DisabledPlugins) -> None:
    from seebench.plugin_entry_points import entry_points

    allowed = _allowed_distributions()
    if allowed == set():  # SEEBENCH_LOAD_PLUGINS="": none is loaded, none need be found
        return
    eps = entry_points(ENTRY_POINT_GROUP)
    if allowed:
        _warn_unknown_allowed(allowed, eps)
    for ep in eps:
        dist = ep.dist_name if ep.dist_name is not None else "?"
        version = ep.dist_version if ep.dist_version is not None else "?"
        if allowed is not None and _normalise(dist) not in allowed:
            continue
        if pm.has_plugin(ep.name) or pm.is_blocked(ep.name):
            continue
        if disabled.match(ep.name, dist):
            pm.disabled.append(ep.name)
            continue
        pm.load_optional(ep.load, ep.name, dist, version)


def create_plugin_manager(
    extra_plugins: tuple[tuple[Any, str], ...] = (), entry_points: bool = True
) -> SeebenchPluginManager:
    """A new plugin manager: built-ins, then ``extra_plugins`` ((object, name) pairs, for
    tests and embedding), then the permitted entry-point plugins; hooks are checked."""
    pm = SeebenchPluginManager()
    version = _seebench_version()
    disabled = _DisabledPlugins()
    for name, module_name in BUILTIN_MODULES.items():
        if disabled.match(name, builtin_short_name(name), module_name):
            pm.disabled.append(name)
            continue
        pm.register_plugin(importlib.import_module(module_name), name, "seebench", version)
    for plugin, name in extra_plugins:
        pm.register_plugin(plugin, name, f"<{name}>", _module_version(plugin))
    for module_name in filter(
        None, (m.strip() for m in os.environ.get(EXTRA_PLUGINS_ENV, "").split(","))
    ):
        if disabled.match(module_name):
            pm.disabled.append(module_name)
            continue
        pm.load_optional(
            functools.partial(importlib.import_module, module_name),
            module_name,
            f"<{EXTRA_PLUGINS_ENV}>",
            None,
        )
    if entry_points:
        _load_entry_points(pm, disabled)
    disabled.warn_unmatched([builtin_short_name(m) for m in DEFAULT_PLUGINS])
    pm.check_hooks()
    return pm


def builtin_short_name(module_name: str) -> str:
    """``seebench.builtin.selu`` -> ``selu`` (and ``seebench.view.plugin`` -> ``view``): the
    name ``SEEBENCH_DISABLE_PLUGINS`` accepts."""
    parts = module_name.split(".")
    return parts[-2] if parts[-1] == "plugin" and len(parts) > 1 else parts[-1]


@functools.cache
def get_plugin_manager() -> SeebenchPluginManager:
    """The process-wide plugin manager with built-in and permitted third-party plugins."""
    pm = create_plugin_manager()
    if _tracing():
        pm.trace.root.setwriter(lambda msg: print(msg, end="", file=sys.stderr))
        pm.enable_tracing()
    return pm


class _OptionalPluginFailed(Exception):
    """An optional plugin failed while registering: leave it out and build again."""

    def __init__(self, plugin: str, error: str) -> None:
        super().__init__(error)
        self.plugin = plugin
        self.error = error


def _is_optional(pm: pluggy.PluginManager, name: str) -> bool:
    return isinstance(pm, SeebenchPluginManager) and pm.is_optional(name)


def _call_per_plugin(
    pm: pluggy.PluginManager, hook_name: str, make_register: Callable[[str], Any]
) -> None:
    """Call a registration hook one implementation at a time, so items can blame a plugin."""
    hook_caller = getattr(pm.hook, hook_name)
    tracing = _tracing()
    for impl in hook_caller.get_hookimpls():  # registration order
        register = make_register(impl.plugin_name)
        if tracing:
            register = _traced(register, impl.plugin_name, hook_name)
        try:
            impl.function(**{arg: register for arg in impl.argnames})
        except Exception as exc:
            error = (
                exc
                if isinstance(exc, PluginError)
                else PluginError(
                    f"plugin {impl.plugin_name!r} failed in {hook_name}: {one_line(exc)}"
                )
            )
            if _is_optional(pm, impl.plugin_name):
                raise _OptionalPluginFailed(impl.plugin_name, str(error)) from None
            raise error from None


def call_register_commands(pm: pluggy.PluginManager, cli: click.Group) -> None:
    """Call ``register_commands`` as ``pm.hook.register_commands(cli=cli)`` does (same order),
    one implementation at a time: an optional plugin that fails is left out in one line."""
    for impl in reversed(pm.hook.register_commands.get_hookimpls()):
        try:
            impl.function(**{arg: cli for arg in impl.argnames})
        except Exception as exc:
            if not (isinstance(pm, SeebenchPluginManager) and pm.is_optional(impl.plugin_name)):
                raise
            owner = pm.owner(impl.plugin_name)
            dist, version = pm.distributions.get(owner, ("?", "?"))
            pm.leave_out(owner, dist, version, f"failed in register_commands: {one_line(exc)}")


def _tracing() -> bool:
    return os.environ.get(TRACE_PLUGINS_ENV, "").strip() not in ("", "0")


def _traced(register: Callable[..., None], plugin_name: str, hook_name: str) -> Callable[..., None]:
    def traced_register(*args: Any, **kwargs: Any) -> None:
        print(
            f"seebench trace: {hook_name}: plugin {plugin_name!r} registers {args[0]!r}",
            file=sys.stderr,
        )
        register(*args, **kwargs)

    return traced_register


def build_registry(pm: pluggy.PluginManager) -> Registry:
    """Ask every plugin to register its items and return the resulting registry. An optional
    (third-party) plugin that fails is left out with one warning line and the registry is
    built again without it; the registry lists such plugins in ``plugin_problems``."""
    while True:
        try:
            registry = _build_registry_once(pm)
        except _OptionalPluginFailed as failed:
            assert isinstance(pm, SeebenchPluginManager)
            owner = pm.owner(failed.plugin)
            dist, version = pm.distributions.get(owner, ("?", "?"))
            pm.leave_out(owner, dist, version, failed.error)
            continue
        if isinstance(pm, SeebenchPluginManager):
            registry.plugin_problems = [problem.record() for problem in pm.problems]
        return registry


def _build_registry_once(pm: pluggy.PluginManager) -> Registry:
    registry = Registry()
    distributions: dict[str, tuple[str, str]] = getattr(pm, "distributions", {})
    registry.distributions = {
        name: f"{dist}=={version}" for name, (dist, version) in distributions.items()
    }
    builder = RegistryBuilder(registry)
    _call_per_plugin(pm, "register_task_types", builder.task_type)
    _call_per_plugin(pm, "register_metrics", builder.metric)
    _call_per_plugin(pm, "register_scorers", builder.scorer)
    _call_per_plugin(pm, "register_methods", builder.method)
    _call_per_plugin(pm, "register_models", builder.model)
    _call_per_plugin(pm, "register_backends", builder.backend)
    _call_per_plugin(pm, "register_data_readers", builder.data_reader)
    _call_per_plugin(pm, "register_data_files", builder.data_file)
    _call_per_plugin(pm, "register_prepare_steps", builder.prepare_step)
    _call_per_plugin(pm, "register_exporters", builder.exporter)
    _call_per_plugin(pm, "register_task_dirs", builder.task_dir)
    _call_per_plugin(pm, "register_suites", builder.suite)
    registry.observers = [
        (impl.plugin_name, impl.function) for impl in pm.hook.on_unit_finished.get_hookimpls()
    ]
    for entry in registry.models.values():
        if entry.default_method not in registry.methods:
            message = (
                f"plugin {entry.plugin!r} registered model {entry.name!r} with unknown "
                f"default_method {entry.default_method!r}"
            )
            if _is_optional(pm, entry.plugin):
                raise _OptionalPluginFailed(entry.plugin, message)
            raise PluginError(message)
    return registry


@functools.cache
def get_registry() -> Registry:
    """The process-wide registry built from :func:`get_plugin_manager`."""
    return build_registry(get_plugin_manager())


def get_task_index() -> TaskIndex:
    """The task index of the process-wide registry and of the ``--include-path`` folders
    (:func:`seebench.tasks.index.set_include_paths`)."""
    from seebench.tasks.index import build_task_index, include_paths

    registry = get_registry()
    paths, generation = include_paths()
    key = (id(registry), generation)
    if key not in _task_indexes:
        _task_indexes.clear()
        index = build_task_index(registry, paths)
        _task_indexes[key] = with_left_out_tasks(index, get_plugin_manager().problems)
    return _task_indexes[key]


def with_left_out_tasks(index: TaskIndex, problems: list[PluginProblem]) -> TaskIndex:
    """``index`` with the known tasks of left-out plugins added as broken (so ``tasks list``
    shows them and ``--tasks NAME`` says why NAME cannot run)."""
    from dataclasses import replace
    from pathlib import Path

    from seebench.tasks.index import BrokenTask

    taken = set(index.summaries) | {b.name for b in index.broken}
    extra = tuple(
        BrokenTask(Path(task.path), task.name, task.suite, problem.name, (problem.line(),))
        for problem in problems
        for task in problem.tasks
        if task.name not in taken
    )
    return replace(index, broken=index.broken + extra) if extra else index


_task_indexes: dict[tuple[int, int], TaskIndex] = {}


def reset() -> None:
    """Forget the cached plugin manager, registry and task index (tests, or after changing
    the env)."""
    get_registry.cache_clear()
    get_plugin_manager.cache_clear()
    _task_indexes.clear()


def plugin_infos(pm: SeebenchPluginManager | None = None) -> list[PluginInfo]:
    """Describe every loaded plugin: name, distribution, version, implemented hooks."""
    pm = pm or get_plugin_manager()
    infos = []
    for name, plugin in pm.list_name_plugin():
        hooks = tuple(sorted(caller.name for caller in pm.get_hookcallers(plugin) or []))
        dist, version = pm.distributions.get(name, ("?", "?"))
        infos.append(PluginInfo(name, dist, version, dist == "seebench", hooks))
    for problem in pm.problems:
        infos.append(
            PluginInfo(
                problem.name,
                problem.distribution,
                problem.version,
                False,
                (),
                f"not loaded: {problem.error}",
            )
        )
    return infos


def notify_unit_finished(event: Any) -> None:
    """Call every ``on_unit_finished`` observer of the process-wide plugins (the runner calls
    those of its own registry: :meth:`seebench.registry.Registry.notify_unit_finished`)."""
    get_registry().notify_unit_finished(event)
