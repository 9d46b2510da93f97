"""Run files: ``seebench eval --config run.yaml``.

A run file is a YAML mapping with the options of one evaluation (models, tasks, method,
method options, seed, limit, output, executor, budgets, trackers...). It is validated against
``schema/run.schema.json``; every problem is one line ``FILE: KEY: reason``, as for task files.

The file's values become the command's defaults (click's ``default_map``), so a flag given on
the command line wins over the file; ``options`` merge key by key with ``-o``. Relative paths
(``output``, ``include_paths``) are relative to the run file's folder. The resolved
configuration of every run is written next to the results (:func:`store_resolved_config`).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import json
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench.errors import SeebenchError, did_you_mean
from seebench.tasks.yaml_loader import format_path, load_yaml_strict

if TYPE_CHECKING:  # jsonschema is imported when a run file is checked, not on every run
    import jsonschema

#: Folder (inside the output directory) that keeps the resolved configuration of each run.
RUNS_DIR = "runs"

#: Run-file keys whose value is handled here rather than mapped to a parameter of the same name.
_PARAMETER_OF = {"models": "model", "progress": "no_progress"}


class RunFileError(SeebenchError):
    """A run file is invalid; ``problems`` holds one ``FILE: KEY: reason`` line per problem."""

    def __init__(self, problems: list[str]):
        self.problems = [p.replace("\n", "\\n") for p in problems]
        super().__init__("\n".join(self.problems))


@functools.cache
def run_schema() -> dict[str, Any]:
    """The run-file JSON Schema shipped in the package."""
    text = resources.files("seebench.runner").joinpath("schema/run.schema.json").read_text()
    return json.loads(text)


def _describe(error: jsonschema.ValidationError) -> tuple[str, str]:
    path = list(error.absolute_path)
    if error.validator == "additionalProperties":
        known = error.schema.get("properties", {})
        extra = sorted(set(error.instance) - set(known), key=repr)
        if extra:
            return format_path(path + extra[:1]), (
                f"unknown key {extra[0]!r}{did_you_mean(extra[0], known)}"
            )
    if error.validator in ("oneOf", "anyOf") and error.context:
        # the deepest error is in the branch that matches the value's shape (a list's item)
        deepest = max(error.context, key=lambda e: len(e.absolute_path))
        if len(deepest.absolute_path) > len(path):
            return _describe(deepest)
        from jsonschema.exceptions import best_match

        best = best_match(error.context)
        return format_path(path), best.message
    return format_path(path), error.message[:200]


def run_file_problems(document: Any, file: str) -> list[str]:
    """Every problem of a parsed run file, one ``FILE: KEY: reason`` line each."""
    if not isinstance(document, dict):
        return [f"{file}: <root>: expected a mapping of options"]
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(run_schema())
    problems = []
    for error in sorted(
        validator.iter_errors(document), key=lambda e: list(map(repr, e.absolute_path))
    ):
        path, reason = _describe(error)
        problems.append(f"{file}: {path}: {reason}")
    if "model" in document and "models" in document:
        problems.append(f"{file}: models: give either 'model' or 'models', not both")
    return sorted(set(problems), key=problems.index)


def load_run_file(path: Path) -> dict[str, Any]:
    """Parse and validate a run file; raise :class:`RunFileError` listing its problems."""
    document = load_yaml_strict(path)
    problems = run_file_problems(document, str(path))
    if problems:
        raise RunFileError(problems)
    return document


def _joined(value: str | list[str]) -> str:
    return value if isinstance(value, str) else ",".join(value)


def run_file_defaults(
    document: dict[str, Any], path: Path, parameters: set[str], command: str = "eval"
) -> dict[str, Any]:
    """The run file as defaults for a command whose parameters are named ``parameters``.

    Lists of models, tasks and trackers become comma-separated strings, ``progress`` becomes
    ``no_progress``, relative paths are taken from the run file's folder. ``options`` is left
    out (the caller merges it with ``-o``); a key the command has no parameter for is an error
    naming the file and the key.
    """
    base = path.parent
    defaults: dict[str, Any] = {}
    for key, value in document.items():
        if key == "options":
            continue
        name = _PARAMETER_OF.get(key, key)
        if name not in parameters:
            raise RunFileError([f"{path}: {key}: 'seebench {command}' has no such option"])
        if key in ("model", "models", "tasks", "log_to"):
            value = _joined(value)
        elif key == "progress":
            value = not value
        elif key == "output":
            value = base / value
        elif key == "include_paths":
            value = [base / p for p in value]
        defaults[name] = value
    return defaults


def _plain(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def resolved_config(
    config: Any,
    sources: dict[str, str] | None = None,
    run_file: Path | None = None,
    models: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """``config`` (an :class:`~seebench.runner.config.EvalConfig`) as plain data, with where
    each command-line parameter came from (``sources``), the run file, if any, and every
    model of the run with its resolved method and options (``models``)."""
    is_instance = dataclasses.is_dataclass(config) and not isinstance(config, type)
    data = _plain(dataclasses.asdict(config)) if is_instance else {}
    if models:
        data["models"] = _plain(models)
    if sources:
        data["sources"] = dict(sources)
    if run_file is not None:
        data["run_file"] = str(run_file)
    return data


def store_resolved_config(
    config: Any,
    output: Path,
    sources: dict[str, str] | None = None,
    run_file: Path | None = None,
    models: list[dict[str, Any]] | None = None,
    missing_plugins: list[dict[str, Any]] | None = None,
) -> Path:
    """Write the resolved configuration to ``OUTPUT/runs/<UTC time>.yaml`` (secrets scrubbed).

    ``missing_plugins``: the plugins left out of this process (they failed to load) that the
    run's ``--tasks`` would have included, so the record says what the run lacked."""
    from seebench import safe_files
    from seebench.results.io import atomic_write_text
    from seebench.secrets import scrub
    from seebench.tasks.yaml_loader import safe_dump

    safe_files.add_root(output)  # no write through a linked runs/ folder
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S.%fZ")
    target = output / RUNS_DIR / f"{stamp}.yaml"
    target.parent.mkdir(parents=True, exist_ok=True)
    data = resolved_config(config, sources, run_file, models)
    if missing_plugins:
        data["missing_plugins"] = _plain(missing_plugins)
    data = scrub(data)
    atomic_write_text(target, safe_dump(data))
    return target
