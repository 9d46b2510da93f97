"""Validation of task documents against the JSON Schema and the registry.

Every problem is reported as ``FILE: KEY.PATH: reason``, one per line.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from seebench.errors import TaskSpecError
from seebench.registry import Registry
from seebench.tasks.spec import TaskSpec
from seebench.tasks.yaml_loader import format_path, load_task_document


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


def _validator(registry: Registry, type_name: str) -> jsonschema.protocols.Validator:
    key = (id(registry), type_name)
    if key not in _validators:
        schema = schema_for_type(registry, type_name)
        cls = jsonschema.validators.validator_for(schema)
        _validators[key] = cls(schema)
    return _validators[key]


def _describe(error: jsonschema.ValidationError) -> tuple[str, str]:
    path = list(error.absolute_path)
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})), key=repr)
        return format_path(path + extra[:1]), f"unknown key {extra[0]!r}" if extra else error.message
    if error.validator == "required":
        return format_path(path), error.message.replace("is a required property", "is required")
    if error.validator == "enum" and path == ["type"]:
        return "type", f"unknown task type {error.instance!r}; known: {', '.join(error.validator_value)}"
    if error.validator in ("oneOf", "anyOf") and error.context:
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
    validator = _validator(registry, type_name if isinstance(type_name, str) else "")
    problems = []
    for error in sorted(validator.iter_errors(document), key=lambda e: list(map(repr, e.absolute_path))):
        path, reason = _describe(error)
        problems.append(f"{file}: {path}: {reason}")
    return sorted(set(problems), key=problems.index)


def registry_problems(document: dict[str, Any], registry: Registry, file: str) -> list[str]:
    """Problems the schema cannot see: unknown metrics, readers, steps; label consistency."""
    problems = []
    type_name = document.get("type")
    type_entry = registry.task_types.get(type_name) if isinstance(type_name, str) else None
    metrics = document.get("metrics")
    for index, metric in enumerate(metrics if isinstance(metrics, list) else []):
        if not isinstance(metric, str):
            continue
        if metric not in registry.metrics:
            problems.append(
                f"{file}: metrics[{index}]: unknown metric {metric!r}; "
                f"known: {', '.join(sorted(registry.metrics))}"
            )
        elif type_entry and registry.metrics[metric].task_types and (
            type_entry.name not in registry.metrics[metric].task_types
        ):
            applicable = [m.name for m in registry.metrics.values()
                          if not m.task_types or type_entry.name in m.task_types]
            problems.append(
                f"{file}: metrics[{index}]: metric {metric!r} does not apply to task type "
                f"{type_entry.name!r}; use one of: {', '.join(applicable)}"
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
                step_validator = jsonschema.validators.validator_for(entry.schema)(entry.schema)
                for error in step_validator.iter_errors(options):
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


def load_task(path: Path, registry: Registry, default_suite: str | None = None) -> TaskSpec:
    """Load, merge and validate one task YAML; raise :class:`TaskSpecError` listing problems."""
    file = str(path)
    document = load_task_document(path)
    if default_suite and "suite" not in document:
        document["suite"] = default_suite
    problems = validate_document(document, registry, file)
    if problems:
        raise TaskSpecError(file, problems)
    return TaskSpec.from_document(document, Path(path))
