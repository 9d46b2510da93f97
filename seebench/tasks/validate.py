"""Validation of task documents against the JSON Schema and the registry.

Every problem is reported as ``FILE: KEY.PATH: reason``, one per line.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jsonschema_rs

from seebench.errors import TaskSpecError, did_you_mean
from seebench.registry import Registry
from seebench.tasks.spec import TaskSpec
from seebench.tasks.yaml_loader import format_path, load_task_document

if TYPE_CHECKING:  # jsonschema (slow to import) only writes the messages of invalid tasks
    import jsonschema


@functools.cache
def base_task_schema() -> dict[str, Any]:
    """The task JSON Schema shipped in the package (without type-specific properties)."""
    text = resources.files("seebench.tasks").joinpath("schema/task.schema.json").read_text()
    return json.loads(text)


def schema_for_type(registry: Registry, type_name: str) -> dict[str, Any]:
    """The base schema extended with the properties that ``type_name`` registered."""
    schema = copy.deepcopy(base_task_schema())
    schema["properties"]["type"]["enum"] = sorted(registry.task_types)
    entry = registry.task_types.get(type_name)
    if entry is not None:
        schema["properties"].update(copy.deepcopy(entry.schema.get("properties", {})))
        schema["required"] = [*schema["required"], *entry.schema.get("required", [])]
    return schema


_validators: dict[tuple[int, str], jsonschema.protocols.Validator] = {}
_fast_validators: dict[tuple[int, str], Any] = {}


def _validator(registry: Registry, type_name: str) -> jsonschema.protocols.Validator:
    import jsonschema

    key = (id(registry), type_name)
    if key not in _validators:
        schema = schema_for_type(registry, type_name)
        cls = jsonschema.validators.validator_for(schema)
        _validators[key] = cls(schema)
    return _validators[key]


def _fast_validator(registry: Registry, type_name: str) -> Any:
    """A compiled validator (jsonschema-rs) of the same schema, or ``None`` if it cannot be
    built. It only answers "valid or not": the messages always come from :mod:`jsonschema`."""
    key = (id(registry), type_name)
    if key not in _fast_validators:
        try:
            _fast_validators[key] = jsonschema_rs.validator_for(
                schema_for_type(registry, type_name)
            )
        except Exception:  # a schema the compiled validator cannot handle: the slow path
            _fast_validators[key] = None
    return _fast_validators[key]


_step_validator_cache: dict[int, tuple[Any, Any]] = {}
_slow_step_validators: dict[int, tuple[Any, jsonschema.protocols.Validator]] = {}


def _step_fast_validator(entry: Any) -> Any:
    """The compiled validator (or ``None``) of a preparation step's schema, built once per
    registered step rather than once per step of every task file."""
    cached = _step_validator_cache.get(id(entry))
    if cached is None or cached[0] is not entry:
        try:
            fast = jsonschema_rs.validator_for(entry.schema)
        except Exception:
            fast = None
        cached = _step_validator_cache[id(entry)] = (entry, fast)
    return cached[1]


def _step_slow_validator(entry: Any) -> jsonschema.protocols.Validator:
    """The :mod:`jsonschema` validator of a preparation step's schema (for the messages)."""
    import jsonschema

    cached = _slow_step_validators.get(id(entry))
    if cached is None or cached[0] is not entry:
        slow = jsonschema.validators.validator_for(entry.schema)(entry.schema)
        cached = _slow_step_validators[id(entry)] = (entry, slow)
    return cached[1]


def _accepts(fast: Any, value: Any) -> bool:
    try:
        return bool(fast.is_valid(value))
    except Exception:  # a value the compiled validator cannot read: ask jsonschema
        return False


def _surely_valid(document: dict[str, Any], registry: Registry, type_name: str) -> bool:
    """True when the compiled validator accepts ``document``. Valid documents are the common
    case of a task index build; anything else (invalid, or a value the compiled validator
    cannot read, such as a YAML date) goes through :mod:`jsonschema` for its messages."""
    fast = _fast_validator(registry, type_name)
    return fast is not None and _accepts(fast, document)


def _describe(error: jsonschema.ValidationError) -> tuple[str, str]:
    path = list(error.absolute_path)
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})), key=repr)
        return format_path(
            path + extra[:1]
        ), f"unknown key {extra[0]!r}" if extra else error.message
    if error.validator == "required":
        return format_path(path), error.message.replace("is a required property", "is required")
    if error.validator == "enum" and path == ["type"]:
        return (
            "type",
            f"unknown task type {error.instance!r}; known: {', '.join(error.validator_value)}",
        )
    if error.validator in ("oneOf", "anyOf") and error.context:
        import jsonschema

        best = jsonschema.exceptions.best_match(error.context)
        return format_path(path), best.message
    message = error.message
    if len(message) > 200:
        message = message[:197] + "..."
    return format_path(path), message


def schema_problems(document: Any, registry: Registry, file: str) -> list[str]:
    """JSON Schema problems of one merged task document."""
    if not isinstance(document, dict):
        return [f"{file}: <root>: expected a mapping"]
    type_name = document.get("type")
    type_name = type_name if isinstance(type_name, str) else ""
    if _surely_valid(document, registry, type_name):
        return []
    validator = _validator(registry, type_name)
    problems = []
    for error in sorted(
        validator.iter_errors(document), key=lambda e: list(map(repr, e.absolute_path))
    ):
        path, reason = _describe(error)
        problems.append(f"{file}: {path}: {reason}")
    return sorted(set(problems), key=problems.index)


def _relevant_metrics(registry: Registry, type_name: str, type_object: Any) -> list[str]:
    """The metrics made for this task type: those that name the type or its target kind;
    when none does, every metric that applies (including those declared for all types)."""
    kind = getattr(type_object, "target_kind", None)
    named = [
        m.name
        for m in registry.metrics.values()
        if type_name in m.task_types or (kind is not None and kind in m.target_kinds)
    ]
    if named:
        return sorted(named)
    return sorted(m.name for m in registry.metrics.values() if m.applies_to(type_name, type_object))


def registry_problems(document: dict[str, Any], registry: Registry, file: str) -> list[str]:
    """Problems the schema cannot see: unknown metrics, readers, steps; label consistency."""
    problems: list[str] = []
    type_name = document.get("type")
    type_entry = registry.task_types.get(type_name) if isinstance(type_name, str) else None
    type_object = _type_object(type_entry, file, problems)  # not None: type_name is a str
    metrics = document.get("metrics")
    for index, item in enumerate(metrics if isinstance(metrics, list) else []):
        metric = item.get("name") if isinstance(item, dict) else item
        if not isinstance(metric, str):
            continue
        if metric not in registry.metrics:
            known = (
                _relevant_metrics(registry, str(type_name), type_object)
                if type_object is not None
                else sorted(registry.metrics)
            )
            what = f"metrics for type {type_name!r}" if type_object is not None else "known"
            problems.append(
                f"{file}: metrics[{index}]: unknown metric {metric!r}; "
                f"{what}: {', '.join(known)}{did_you_mean(metric, registry.metrics)}"
            )
        elif type_object is not None and not registry.metrics[metric].applies_to(
            str(type_name), type_object
        ):
            applicable = _relevant_metrics(registry, str(type_name), type_object)
            problems.append(
                f"{file}: metrics[{index}]: metric {metric!r} does not apply to task type "
                f"{type_name!r}; use one of: {', '.join(applicable)}"
            )
    scorers = document.get("scorers")
    for index, item in enumerate(scorers if isinstance(scorers, list) else []):
        scorer = item.get("name") if isinstance(item, dict) else item
        if isinstance(scorer, str) and scorer not in registry.scorers:
            problems.append(
                f"{file}: scorers[{index}]: unknown scorer {scorer!r}; "
                f"known: {', '.join(sorted(registry.scorers)) or '(none)'}{did_you_mean(scorer, registry.scorers)}"
            )
        elif isinstance(scorer, str) and isinstance(item, dict):
            problems += [
                f"{file}: scorers[{index}].options: {p}"
                for p in registry.scorers[scorer].option_problems(item.get("options") or {})
            ]
    methods = document.get("methods")
    for method, options in methods.items() if isinstance(methods, dict) else ():
        if method in registry.methods and isinstance(options, dict):
            problems += [
                f"{file}: methods.{method}: {p}"
                for p in registry.methods[method].option_problems(options)
            ]
    if type_object is not None and not document.get("metrics") and not type_object.default_metrics:
        problems.append(
            f"{file}: metrics: task type {type_name!r} has no default metrics; list some"
        )
    data = document.get("data")
    if isinstance(data, dict):
        sources = data.get("sources")
        for index, source in enumerate(sources if isinstance(sources, list) else []):
            fmt = source.get("format") if isinstance(source, dict) else None
            if isinstance(fmt, str) and fmt not in registry.data_readers:
                problems.append(
                    f"{file}: data.sources[{index}].format: unknown data format {fmt!r}; "
                    f"known: {', '.join(sorted(registry.data_readers))}"
                )
        steps = data.get("prepare")
        for index, step in enumerate(steps if isinstance(steps, list) else []):
            if not isinstance(step, dict) or not isinstance(step.get("step"), str):
                continue
            entry = registry.prepare_steps.get(step["step"])
            where = f"data.prepare[{index}]"
            if entry is None:
                problems.append(
                    f"{file}: {where}.step: unknown preparation step {step['step']!r}; "
                    f"known: {', '.join(sorted(registry.prepare_steps))}"
                )
                continue
            if entry.schema:
                options = {k: v for k, v in step.items() if k != "step"}
                fast = _step_fast_validator(entry)
                if fast is not None and _accepts(fast, options):
                    continue
                for error in _step_slow_validator(entry).iter_errors(options):
                    path, reason = _describe(error)
                    problems.append(f"{file}: {where}.{path}: {reason}")
    labels = document.get("labels")
    if isinstance(labels, list):
        names = [label.get("name") for label in labels if isinstance(label, dict)]
        for index, name in enumerate(names):
            if isinstance(name, str) and name in names[:index]:
                problems.append(f"{file}: labels[{index}].name: duplicate label {name!r}")
    return problems


def validate_document(document: Any, registry: Registry, file: str) -> list[str]:
    """All problems of a merged task document (empty when valid)."""
    problems = schema_problems(document, registry, file)
    if isinstance(document, dict):
        problems += registry_problems(document, registry, file)
    return problems


def load_task(
    path: Path,
    registry: Registry,
    default_suite: str | None = None,
    files: list[Path] | None = None,
) -> TaskSpec:
    """Load, merge and validate one task YAML; raise :class:`TaskSpecError` listing problems.

    ``files``, when given, receives every file the task depends on (see
    :func:`~seebench.tasks.yaml_loader.load_task_document`)."""
    file = str(path)
    document = load_task_document(path, files=files)
    if default_suite and "suite" not in document:
        document["suite"] = default_suite
    problems = validate_document(document, registry, file)
    if problems:
        raise TaskSpecError(file, problems)
    return TaskSpec.from_document(document, Path(path), registry.task_type(document["type"]).load())


def _type_object(type_entry: Any, file: str, problems: list[str]) -> Any:
    """The behaviour object of a registered type, or ``None`` (with a problem) if it fails to load."""
    if type_entry is None:
        return None
    try:
        return type_entry.load()
    except Exception as exc:
        problems.append(f"{file}: type: task type {type_entry.name!r} cannot be loaded: {exc}")
        return None
