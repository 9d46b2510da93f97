"""The run file of a published leaderboard: ``board.yaml`` in the leaderboard's folder.

One file says how the whole folder is made: the evaluations (each the options of one
``seebench eval``: models, tasks, method, method options, seed, limit, bootstrap), what each
caps and why, the tolerance a rerun may differ by (and its cause), and the options of the
``seebench compare`` that draws the tables. ``seebench leaderboard build DIR`` runs it;
``seebench reproduce DIR`` runs it again into a scratch folder and checks the outcome::

    title: SELU on two CPU cores
    results: results                 # the results folder, relative to DIR
    runs:
      - name: baselines
        models: [majority, random]
        tasks: [functional_requirement, review_type]
      - name: smollm2-zero-shot
        model: smollm2
        method: zero-shot
        tasks: [functional_requirement, review_type]
        limit: 40
        capped: "--limit 40: a generation takes seconds on a shared CPU"
        tolerance: {abs: 0.0001, cause: "torch CPU kernels: thread count"}
    compare: {include_limited: true, rope: 0.1}

Every problem is one line ``FILE: KEY: reason``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from seebench.errors import SeebenchError, did_you_mean
from seebench.tasks.yaml_loader import format_path

#: The name of the run file inside a leaderboard folder.
BOARD_FILE = "board.yaml"

_STRINGS = {
    "oneOf": [
        {"type": "string", "minLength": 1},
        {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
    ]
}
_RUN = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "tasks"],
    "properties": {
        "name": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*$"},
        "model": {"type": "string", "minLength": 1},
        "models": _STRINGS,
        "tasks": _STRINGS,
        "method": {"type": "string", "minLength": 1},
        "options": {"type": "object"},
        "seed": {"type": "integer"},
        "limit": {"type": "integer", "minimum": 1},
        "bootstrap": {"type": "integer", "minimum": 0},
        "capped": {"type": "string", "minLength": 1},
        "tolerance": {
            "type": "object",
            "additionalProperties": False,
            "required": ["abs", "cause"],
            "properties": {
                "abs": {"type": "number", "minimum": 0},
                "cause": {"type": "string", "minLength": 1},
            },
        },
    },
    "oneOf": [{"required": ["model"]}, {"required": ["models"]}],
}
_COMPARE = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "include_limited": {"type": "boolean"},
        "include_types": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "missing": {"enum": ["overlap", "error", "drop-tasks", "drop-models"]},
        "rope": {"type": "number", "minimum": 0},
        "seed": {"type": "integer"},
        "nsamples": {"type": "integer", "minimum": 100},
        "title": {"type": "string", "minLength": 1},
    },
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["runs"],
    "properties": {
        "title": {"type": "string", "minLength": 1},
        "results": {"type": "string", "minLength": 1},
        "runs": {"type": "array", "minItems": 1, "items": _RUN},
        "compare": _COMPARE,
    },
}


@dataclass(frozen=True)
class Tolerance:
    """How far a rerun's metric may differ from the published one, and why it may."""

    abs: float = 0.0
    cause: str = ""


@dataclass(frozen=True)
class BoardRun:
    """One evaluation of the board: the options of one ``seebench eval``."""

    name: str
    models: tuple[str, ...]
    tasks: tuple[str, ...]
    method: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    limit: int | None = None
    bootstrap: int | None = None
    capped: str | None = None
    tolerance: Tolerance = Tolerance()

    def eval_args(self, output: Path, models: tuple[str, ...] | None = None) -> list[str]:
        """The ``seebench eval`` arguments of this run, writing into ``output`` (only
        ``models`` of the run's models, when given)."""
        chosen = models if models is not None else self.models
        args = ["eval", "--model", ",".join(chosen), "--tasks", ",".join(self.tasks)]
        if self.method:
            args += ["--method", self.method]
        for key, value in self.options.items():
            args += ["-o", f"{key}={_yaml_value(value)}"]
        for flag, value in (
            ("--seed", self.seed),
            ("--limit", self.limit),
            ("--bootstrap", self.bootstrap),
        ):
            if value is not None:
                args += [flag, str(value)]
        return [*args, "--output", str(output), "--no-progress"]


@dataclass(frozen=True)
class Board:
    """A leaderboard folder's run file, read and checked."""

    folder: Path
    path: Path
    title: str
    results: Path
    runs: tuple[BoardRun, ...]
    compare: dict[str, Any]

    def compare_args(self, results: Path, out: Path) -> list[str]:
        """The ``seebench compare`` arguments that draw the board from ``results`` into ``out``."""
        options = self.compare
        args = [
            "compare",
            str(results),
            "--out",
            str(out),
            "--title",
            options.get("title", self.title),
        ]
        if options.get("include_limited"):
            args.append("--include-limited")
        for name in options.get("include_types", []):
            args += ["--include-type", name]
        for key in ("missing", "rope", "seed", "nsamples"):
            if key in options:
                args += [f"--{key}", str(options[key])]
        return args

    def run_of(self, model: str, method: str | None, task: str | None = None) -> BoardRun | None:
        """The run that evaluated ``model`` (a spec or id) with ``method`` (on ``task``, when
        given: one model and method may be split into runs of different limits per task)."""
        for run in self.runs:
            if (
                model in run.models
                and (run.method is None or run.method == method)
                and (task is None or task in run.tasks)
            ):
                return run
        return None


def _yaml_value(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000).strip()
    return text.removesuffix("\n...").strip()


def _listed(value: Any) -> tuple[str, ...]:
    items = value if isinstance(value, list) else str(value).split(",")
    return tuple(str(v).strip() for v in items if str(v).strip())


def load_board(folder: Path) -> Board:
    """Read and check ``folder/board.yaml``; a :class:`SeebenchError` naming the file and key."""
    path = folder / BOARD_FILE
    if not path.is_file():
        raise SeebenchError(f"{path}: no such file (a leaderboard folder keeps its run file there)")
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise SeebenchError(
            f"{path}: not a readable YAML file: {str(exc).splitlines()[0]}"
        ) from None
    problems = [
        _describe(path, e) for e in jsonschema.Draft202012Validator(SCHEMA).iter_errors(document)
    ]
    if problems:
        raise SeebenchError(sorted(problems)[0])
    runs = tuple(_run(entry) for entry in document["runs"])
    names = [run.name for run in runs]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SeebenchError(f"{path}: runs: the name {twice[0]!r} is given twice")
    return Board(
        folder=folder,
        path=path,
        title=str(document.get("title") or folder.name),
        results=folder / str(document.get("results") or "results"),
        runs=runs,
        compare=dict(document.get("compare") or {}),
    )


def _run(entry: dict[str, Any]) -> BoardRun:
    tolerance = entry.get("tolerance") or {}
    return BoardRun(
        name=entry["name"],
        models=_listed(entry.get("models") or entry.get("model")),
        tasks=_listed(entry["tasks"]),
        method=entry.get("method"),
        options=dict(entry.get("options") or {}),
        seed=entry.get("seed"),
        limit=entry.get("limit"),
        bootstrap=entry.get("bootstrap"),
        capped=entry.get("capped"),
        tolerance=Tolerance(float(tolerance.get("abs", 0.0)), str(tolerance.get("cause", ""))),
    )


def _describe(path: Path, error: jsonschema.ValidationError) -> str:
    where = format_path(list(error.absolute_path))
    if error.validator == "additionalProperties":
        extra = sorted(set(error.instance) - set(error.schema.get("properties", {})))
        if extra:
            hint = did_you_mean(extra[0], error.schema.get("properties", {}))
            return f"{path}: {format_path([*error.absolute_path, extra[0]])}: unknown key {extra[0]!r}{hint}"
    if error.validator == "oneOf" and where.startswith("runs"):
        return f"{path}: {where}: give either 'model' or 'models' (one of them)"
    return f"{path}: {where}: {error.message}"
