"""What the registry holds: one entry type per kind of registered thing, each remembering the
plugin that registered it, and :func:`load_object` for lazily imported ``"module:attr"`` paths."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.errors import PluginError, did_you_mean


def load_object(ref: Any) -> Any:
    """Return ``ref`` itself, or import it when it is a ``"module:attr"`` string."""
    if not isinstance(ref, str):
        return ref
    module_name, _, attr = ref.partition(":")
    if not attr:
        raise PluginError(f"invalid import path {ref!r}: expected 'package.module:attr'")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        from seebench.extras import missing_extra

        extra = missing_extra(exc)
        if extra is not None:  # an optional dependency: name the extra, not the module path
            raise PluginError(str(extra)) from None
        raise PluginError(f"cannot import {module_name!r} (for {ref!r}): {exc}") from exc
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError as exc:
            raise PluginError(f"{module_name!r} has no attribute {attr!r}") from exc
    return obj


@dataclass(frozen=True)
class TaskTypeEntry:
    """A task type: its behaviour object (or import path), JSON Schema fragment and plugin."""

    name: str
    impl: Any
    schema: dict[str, Any]
    description: str
    plugin: str
    _loaded: list[Any] = field(default_factory=list, compare=False, repr=False)

    def load(self) -> Any:
        """The :class:`seebench.tasks.types.TaskType` instance (imported and made once)."""
        if not self._loaded:
            self._loaded.append(_load_task_type(self))
        return self._loaded[0]


#: the base class every task type derives from, named (the registry sits below the task
#: layer and never imports it)
TASK_TYPE_BASE = "seebench.tasks.types.TaskType"


def _is_task_type_class(obj: Any) -> bool:
    return isinstance(obj, type) and any(
        f"{cls.__module__}.{cls.__qualname__}" == TASK_TYPE_BASE for cls in obj.__mro__
    )


def _load_task_type(entry: TaskTypeEntry) -> Any:
    obj = load_object(entry.impl)
    if _is_task_type_class(obj):
        obj = obj()
    if not _is_task_type_class(type(obj)):
        raise PluginError(
            f"plugin {entry.plugin!r}: task type {entry.name!r} is not a seebench.tasks.types.TaskType "
            f"(got {type(obj).__name__})"
        )
    if not obj.name:
        obj.name = entry.name
    return obj


@dataclass(frozen=True)
class DataFileEntry:
    """A data file a plugin reads outside task sources, identified by its sha256;
    ``seebench data import`` stores it in the data cache."""

    name: str
    sha256: str
    file_name: str
    description: str
    plugin: str


@dataclass(frozen=True)
class TaskDirEntry:
    """A directory scanned for task YAML files."""

    path: Path
    suite: str | None
    plugin: str


@dataclass(frozen=True)
class SuiteEntry:
    """A benchmark suite's metadata for the generic commands (``compare``, leaderboards).

    ``task_families`` maps task names to a family label and ``model_groups`` model names to a
    group label (both fill what result files and score tables leave out);
    ``compare_task_types`` are the task types ``seebench compare`` ranks by default for the
    suite's tasks (empty: all types); ``task_groups`` declares groups of its tasks with
    aggregate scores (``{"groups": {...}}``, see :mod:`seebench.scoring.groups`).
    """

    name: str
    description: str
    task_families: Mapping[str, str]
    model_groups: Mapping[str, str]
    compare_task_types: tuple[str, ...]
    plugin: str
    task_groups: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class MetricEntry:
    """An aggregate metric: ``func(golds, predictions, **options) -> float``, or with
    ``inputs="scores"`` ``func(scores, **options) -> float`` over the per-sample
    :class:`~seebench.scoring.Score` objects of one scorer."""

    name: str
    func: Any
    description: str
    task_types: tuple[str, ...]
    higher_is_better: bool
    plugin: str
    target_kinds: tuple[str, ...] = ()
    inputs: str = "predictions"
    scorer: str | None = None

    def load(self) -> Callable[..., float]:
        return load_object(self.func)

    def applies_to(self, type_name: str, type_object: Any) -> bool:
        """Whether the metric may be used on tasks of this type."""
        return _applies(self.task_types, self.target_kinds, type_name, type_object)


def _applies(
    types: tuple[str, ...], kinds: tuple[str, ...], type_name: str, type_object: Any
) -> bool:
    if not types and not kinds:
        return True
    kind = getattr(type_object, "target_kind", None)
    return type_name in types or (kind is not None and kind in kinds)


_compiled_options: dict[str, Any] = {}


def _surely_valid(schema: Any, value: Any) -> bool:
    """True when the compiled validator (jsonschema-rs, built once per distinct schema)
    accepts ``value``; ``False`` when it does not or cannot tell: :mod:`jsonschema` then
    decides, and writes the message. A task index build checks the options of every task."""
    try:
        import jsonschema_rs

        key = json.dumps(schema, sort_keys=True)
        validator = _compiled_options.get(key)
        if validator is None:
            validator = _compiled_options[key] = jsonschema_rs.validator_for(schema)
        return bool(validator.is_valid(value))
    except Exception:
        return False


def option_problems(
    schema: dict[str, Any] | None, options: dict[str, Any], owner: str
) -> list[str]:
    """One line per unknown or ill-typed option (``schema``: JSON Schema ``properties``)."""
    if schema is None:
        return []
    problems = []
    for key, value in options.items():
        if key not in schema:
            allowed = ", ".join(sorted(schema)) or "(none)"
            problems.append(
                f"{owner}: unknown option {key!r}{did_you_mean(key, schema)}; allowed: {allowed}"
            )
            continue
        if _surely_valid(schema[key], value):
            continue
        import jsonschema  # slow to import: only for an option that may be invalid

        validator = jsonschema.validators.validator_for(schema[key])(schema[key])
        error = next(iter(validator.iter_errors(value)), None)
        if error is not None:
            expected = schema[key].get("description") or error.message
            problems.append(f"{owner}: option {key}={value!r} is invalid: {expected}")
    return problems


@dataclass(frozen=True)
class MethodEntry:
    """An evaluation method factory with the task types or target kinds it handles and the
    JSON Schema ``properties`` of its options (``None``: options are not declared)."""

    name: str
    factory: Any
    description: str
    task_types: tuple[str, ...]
    plugin: str
    target_kinds: tuple[str, ...] = ()
    options: dict[str, Any] | None = field(default=None, compare=False)

    def load(self) -> Callable[..., Any]:
        return load_object(self.factory)

    def applies_to(self, type_name: str, type_object: Any) -> bool:
        return _applies(self.task_types, self.target_kinds, type_name, type_object)

    def option_problems(
        self, options: dict[str, Any], schema: dict[str, Any] | None = None
    ) -> list[str]:
        """Problems of ``options`` against the declared (or the given, model-specific) schema."""
        return option_problems(
            schema if schema is not None else self.options, options, f"method {self.name!r}"
        )


@dataclass(frozen=True)
class ScorerEntry:
    """A per-sample scorer factory: ``factory(**options)`` returns a :class:`~seebench.scoring.Scorer`."""

    name: str
    factory: Any
    description: str
    plugin: str
    options: dict[str, Any] | None = field(default=None, compare=False)

    def load(self) -> Callable[..., Any]:
        return load_object(self.factory)

    def option_problems(self, options: dict[str, Any]) -> list[str]:
        return option_problems(self.options, options, f"scorer {self.name!r}")


@dataclass(frozen=True)
class ModelEntry:
    """A named model spec (or a spec prefix such as ``hf:``) and its resolver."""

    name: str
    resolver: Any
    description: str
    default_method: str
    prefix: bool
    plugin: str

    def load(self) -> Callable[[str], Any]:
        return load_object(self.resolver)


#: where a backend's model runs: ``remote`` (an HTTP server: little local CPU), ``local``
#: (weights loaded into this process, torch) or ``none`` (no neural model: a rule, a baseline)
BACKEND_PLACEMENTS = ("remote", "local", "none")


@dataclass(frozen=True)
class BackendEntry:
    """A model backend kind (``ModelRef.kind``): how to make its chat backend, the seebench
    extra that provides it, the modules that extra installs, and its options' JSON Schemas.

    ``factory`` is ``None`` for kinds that do not chat (rules, baselines, retrievers); else
    ``factory(model, options, *, max_new_tokens, temperature, seed, seeded)`` (or an import
    path to it) returns a :class:`seebench.models.backends.base.Backend`.
    """

    name: str
    factory: Any
    description: str
    plugin: str
    extra: str | None = None
    requires: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict, compare=False)
    placement: str = "local"

    @property
    def chats(self) -> bool:
        """Whether models of this kind answer chat prompts."""
        return self.factory is not None

    def missing(self) -> list[str]:
        """The required modules that are not installed (none: the backend can be made)."""
        import importlib.util

        absent = []
        for module in self.requires:
            try:
                found = importlib.util.find_spec(module) is not None
            except (ImportError, ValueError):
                found = False
            if not found:
                absent.append(module)
        return absent

    def load(self) -> Callable[..., Any]:
        return load_object(self.factory)


@dataclass(frozen=True)
class FunctionEntry:
    """A named function (data reader, preparation step, exporter)."""

    name: str
    func: Any
    description: str
    plugin: str
    schema: dict[str, Any] | None = None

    def load(self) -> Callable[..., Any]:
        return load_object(self.func)
