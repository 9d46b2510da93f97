"""The seebench hook specifications: every extension point in one module.

Plugins implement these hooks with ``@seebench.hookimpl``. Registration hooks follow the
*register callback* pattern: the hook receives a ``register`` callable and calls it once per
item it contributes. Each call is validated at once, and a bad item is reported as an error
that names the plugin that registered it.

Hooks are grouped by the phase in which seebench calls them:

1. start-up: :func:`register_commands`
2. registry building (lazily, the first time a registry is needed):
   :func:`register_task_types`, :func:`register_task_dirs`, :func:`register_metrics`,
   :func:`register_scorers`,
   :func:`register_methods`, :func:`register_models`, :func:`register_backends`,
   :func:`register_data_readers`,
   :func:`register_prepare_steps`, :func:`register_exporters`, :func:`register_suites`
3. running: :func:`register_executors` (when ``seebench eval`` picks an executor),
   :func:`on_unit_finished` (observer; a failing observer is logged, never fatal)

Plugins import the marker from here (``from seebench.hookspecs import hookimpl``; the old
``seebench.plugin_manager.hookimpl`` still works). Each ``register`` callable has a
:class:`typing.Protocol` below (``RegisterMetric``...), so a plugin that annotates its
parameter (``def register_metrics(register: RegisterMetric)``) gets a misspelt keyword caught
by a type checker.

Registration must be cheap: register import paths (``"package.module:attr"``) or light
objects, and import heavy libraries (torch, transformers) only when the thing is used, so that
``seebench --help`` and ``seebench tasks list`` stay fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

if TYPE_CHECKING:
    import click

    from seebench.events import UnitFinished

hookspec = pluggy.HookspecMarker("seebench")
hookimpl = pluggy.HookimplMarker("seebench")


# -- the register callables, one protocol per registration hook -----------------------------


class RegisterTaskType(Protocol):
    """The ``register`` of :func:`register_task_types`."""

    def __call__(
        self, name: str, impl: Any, *, description: str = "", schema: dict[str, Any] | None = None
    ) -> None: ...


class RegisterTaskDir(Protocol):
    """The ``register`` of :func:`register_task_dirs`."""

    def __call__(self, path: str | Path, *, suite: str | None = None) -> None: ...


class RegisterMetric(Protocol):
    """The ``register`` of :func:`register_metrics`."""

    def __call__(
        self,
        name: str,
        func: Any,
        *,
        description: str = "",
        task_types: Iterable[str] = (),
        higher_is_better: bool = True,
        target_kinds: Iterable[str] = (),
        inputs: str = "predictions",
        scorer: str | None = None,
    ) -> None: ...


class RegisterScorer(Protocol):
    """The ``register`` of :func:`register_scorers`."""

    def __call__(
        self,
        name: str,
        factory: Any,
        *,
        description: str = "",
        options: dict[str, Any] | None = None,
    ) -> None: ...


class RegisterMethod(Protocol):
    """The ``register`` of :func:`register_methods`."""

    def __call__(
        self,
        name: str,
        factory: Any,
        *,
        description: str = "",
        task_types: Iterable[str] = (),
        target_kinds: Iterable[str] = (),
        options: dict[str, Any] | None = None,
    ) -> None: ...


class RegisterModel(Protocol):
    """The ``register`` of :func:`register_models`."""

    def __call__(
        self,
        name: str,
        resolver: Any,
        *,
        description: str = "",
        default_method: str,
        prefix: bool = False,
    ) -> None: ...


class RegisterBackend(Protocol):
    """The ``register`` of :func:`register_backends`."""

    def __call__(
        self,
        name: str,
        factory: Any,
        *,
        description: str = "",
        extra: str | None = None,
        requires: Iterable[str] = (),
        options: dict[str, Any] | None = None,
        placement: str = "local",
    ) -> None: ...


class RegisterFunction(Protocol):
    """The ``register`` of :func:`register_data_readers`, :func:`register_prepare_steps` and
    :func:`register_exporters` (``schema`` only means something for preparation steps)."""

    def __call__(
        self, name: str, func: Any, *, description: str = "", schema: dict | None = None
    ) -> None: ...


class RegisterDataFile(Protocol):
    """The ``register`` of :func:`register_data_files`."""

    def __call__(
        self, name: str, sha256: str, *, file_name: str, description: str = ""
    ) -> None: ...


class RegisterExecutor(Protocol):
    """The ``register`` of :func:`register_executors`."""

    def __call__(self, name: str, factory: Any, *, description: str = "") -> None: ...


class RegisterSuite(Protocol):
    """The ``register`` of :func:`register_suites`."""

    def __call__(
        self,
        name: str,
        *,
        description: str = "",
        task_families: Mapping[str, str] | None = None,
        model_groups: Mapping[str, str] | None = None,
        compare_task_types: Iterable[str] = (),
        task_groups: Mapping[str, Any] | None = None,
    ) -> None: ...


# -- phase 1: start-up ---------------------------------------------------------------------


@hookspec
def register_commands(cli: click.Group) -> None:
    """Add sub-commands to the ``seebench`` command-line interface.

    ``cli`` is the top-level :class:`click.Group`; decorate functions with ``@cli.command()``
    or call ``cli.add_command(...)``. Keep imports of heavy libraries inside the command body.

    .. versionadded:: 0.1.0
    """


# -- phase 2: registries ---------------------------------------------------------------------


@hookspec
def register_task_types(register: RegisterTaskType) -> None:
    """Register task types: ``register(name, impl, *, description="", schema=None)``.

    ``impl`` is a :class:`seebench.tasks.types.TaskType` instance or subclass, or an import
    path to one: it owns the type's behaviour (targets, splits, per-sample score, prompting,
    default metrics, target kind). ``schema`` is a JSON Schema fragment (a dict with
    ``properties`` and optionally ``required``) merged into the base task schema for tasks of
    this type, so a type can add its own keys (for example ``value_range`` for regression).

    .. versionadded:: 0.1.0
    """


@hookspec
def register_task_dirs(register: RegisterTaskDir) -> None:
    """Register directories of task YAML files: ``register(path, *, suite=None)``.

    Every ``*.yaml`` file below ``path`` (recursively) is a task unless its name starts with
    ``_`` (such files are bases for ``include:``). ``suite`` is the default suite for tasks
    that do not name one.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_metrics(register: RegisterMetric) -> None:
    """Register aggregate metrics: ``register(name, func, *, description, task_types=(),
    target_kinds=(), higher_is_better=True, inputs="predictions", scorer=None)``.

    ``func(golds, predictions, **options) -> float`` (or an import path ``"module:attr"``);
    with ``inputs="scores"`` it is ``func(scores, **options) -> float`` over the per-sample
    :class:`seebench.scoring.Score` objects of the scorer named ``scorer`` (default: the
    task's first scorer). ``task_types`` and ``target_kinds`` say which tasks the metric
    applies to (both empty: all). ``higher_is_better`` orders leaderboards.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_scorers(register: RegisterScorer) -> None:
    """Register per-sample scorers: ``register(name, factory, *, description, options=None)``.

    ``factory(**options)`` (or an import path to it) returns a :class:`seebench.scoring.Scorer`:
    ``score(sample, prediction, context) -> Score`` and ``identity() -> dict`` (everything
    that changes its scores, e.g. a judge model's identity; part of the run hash and of the
    score cache key). ``options`` maps option names to JSON Schemas; unknown or ill-typed
    options are one-line errors.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_methods(register: RegisterMethod) -> None:
    """Register evaluation methods: ``register(name, factory, *, description, task_types=(),
    target_kinds=(), options=None)``.

    ``factory`` is a class or an import path ``"module:attr"``; called without arguments it
    returns an object following :class:`seebench.methods.Method`. ``task_types`` and
    ``target_kinds`` say which tasks the method can run (both empty: all); other tasks are
    recorded as "not applicable". ``options`` maps option names to JSON Schemas: ``-o`` and a
    task's ``methods:`` block are checked against it (a method may refine it per model with
    ``option_schema(model)``).

    .. versionadded:: 0.1.0
    """


@hookspec
def register_models(register: RegisterModel) -> None:
    """Register model specs: ``register(name, resolver, *, description, default_method, prefix=False)``.

    ``resolver(spec: str) -> seebench.models.ModelRef`` (or an import path to one) turns the
    user's ``--model`` string into a model reference with a stable identity. With
    ``prefix=True`` the entry handles every spec that starts with ``name`` (for example
    ``hf:`` or ``openai:``). ``default_method`` is used when ``--method`` is not given.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_backends(register: RegisterBackend) -> None:
    """Register model backend kinds: ``register(name, factory, *, description="", extra=None,
    requires=(), options=None, placement="local")``.

    ``name`` is a :class:`seebench.models.ModelRef` ``kind``: every model a resolver returns
    with that kind is run by this backend. ``factory(model, options, *, max_new_tokens,
    temperature, seed, seeded)`` (or an import path to it) returns a
    :class:`seebench.models.backends.base.Backend`; ``None`` for kinds that do not chat
    (rules, baselines). ``extra`` is the seebench extra that installs the backend's libraries
    and ``requires`` the modules it installs: when one is missing, using the backend is one
    line naming the extra (``pip install 'seebench[hf]'``). ``options`` maps the backend's
    option names to JSON Schemas (``-o`` is checked against them); ``placement`` is
    ``remote`` (an HTTP server), ``local`` (weights in this process) or ``none``.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_data_readers(register: RegisterFunction) -> None:
    """Register data file readers: ``register(format, reader, *, description)``.

    ``reader(path: pathlib.Path, **options) -> list[dict]`` (or an import path) reads one
    source file into rows. ``format`` is the value of ``format:`` in a task's data source.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_data_files(register: RegisterDataFile) -> None:
    """Register data files a plugin reads outside task sources:
    ``register(name, sha256, *, file_name, description)``.

    ``seebench data import DIR`` stores a file under DIR whose sha256 is ``sha256`` in the data
    cache (as it does for task sources), so the plugin finds it with
    ``seebench.data.cache.cached_file(sha256)``; ``name`` identifies the file in messages.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_prepare_steps(register: RegisterFunction) -> None:
    """Register data preparation steps: ``register(name, step, *, description, schema=None)``.

    ``step(rows: list[dict], **options) -> list[dict]`` (or an import path) transforms rows;
    tasks list steps under ``prepare:``. ``schema`` is a JSON Schema for the step's options.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_exporters(register: RegisterFunction) -> None:
    """Register leaderboard exporters: ``register(name, exporter, *, description)``.

    ``exporter(report, out_dir: pathlib.Path) -> list[pathlib.Path]`` (or an import path)
    writes one output format of a comparison report and returns the files it wrote.

    .. versionadded:: 0.1.0
    """


@hookspec
def register_suites(register: RegisterSuite) -> None:
    """Register benchmark suites: ``register(name, *, description, task_families=None,
    model_groups=None, compare_task_types=(), task_groups=None)``.

    A suite is the unit a plugin ships (its task directory, preparation steps and this
    metadata); generic commands learn about it only through this hook. ``task_families``
    maps task names to family labels and ``model_groups`` model names to group labels (for
    leaderboards of score tables that lack them). ``compare_task_types`` lists the registered
    task types that ``seebench compare`` ranks by default for the suite's tasks (empty: all).
    ``task_groups`` (``{"groups": {...}}``) declares groups of tasks with aggregate scores,
    printed by ``eval`` and shown by ``compare`` and ``view`` (:mod:`seebench.scoring.groups`).

    .. versionadded:: 0.1.0
    """


# -- phase 3: running ------------------------------------------------------------------------


@hookspec
def register_executors(register: RegisterExecutor) -> None:
    """Register executors for ``seebench eval --executor NAME``: ``register(name, factory, *,
    description)``.

    ``factory(options: seebench.executors.ExecutorOptions)`` (or an import path to it) returns
    a :class:`seebench.executors.Executor`: it starts units (locally, on a cluster...) and
    reports what each did; the driver keeps the plan, retries, checks and records. Built-ins:
    ``local`` and ``ray``.

    .. versionadded:: 0.1.0
    """


@hookspec
def on_unit_finished(event: UnitFinished) -> None:
    """Observe the end of one (model, method, task) unit of an evaluation run.

    ``event`` is a frozen :class:`seebench.events.UnitFinished`. An exception raised here is
    logged as a warning and never stops the run.

    .. versionadded:: 0.1.0
    """


def _all_hook_names() -> list[str]:
    """Names of every hook defined in this module (used by meta-tests and docs)."""
    return [name for name, obj in globals().items() if hasattr(obj, "seebench_spec")]


__all__ = [
    "RegisterBackend",
    "RegisterDataFile",
    "RegisterExecutor",
    "RegisterFunction",
    "RegisterMethod",
    "RegisterMetric",
    "RegisterModel",
    "RegisterScorer",
    "RegisterSuite",
    "RegisterTaskDir",
    "RegisterTaskType",
    "hookimpl",
    "hookspec",
    "register_commands",
    "register_task_types",
    "register_task_dirs",
    "register_metrics",
    "register_scorers",
    "register_methods",
    "register_models",
    "register_backends",
    "register_data_readers",
    "register_data_files",
    "register_prepare_steps",
    "register_exporters",
    "register_suites",
    "register_executors",
    "on_unit_finished",
]
