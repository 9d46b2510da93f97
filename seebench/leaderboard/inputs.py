"""Reading scores for ``seebench compare``: result directories and tidy CSV files.

A result directory holds ``<model-id>/<method>/<task>.json`` files written by ``seebench run``;
only units with ``status == "ok"`` count and their score is ``metrics[primary_metric]``. A CSV
has the columns ``model``, ``task`` and ``score`` and optionally ``task_type`` (or ``type``),
``family``, ``suite`` and ``metric``; a score of ``-``, ``NA`` or an empty cell is missing.

What the inputs leave out comes from the registry: the task families and model groups that
suites register (``register_suites``), and each metric's direction (``higher_is_better``) when
a result does not record it (``metric_info``).
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seebench import safe_files
from seebench.errors import SeebenchError
from seebench.results.io import RESULT_MAX_BYTES
from seebench.results.numbers import MAX_FLOAT, bad_number
from seebench.stats.matrix import ScoreMatrix

if TYPE_CHECKING:
    from seebench.registry import Registry

MISSING_MARKERS = {"", "-", "na", "nan", "n/a", "none", "null"}

#: How a leaderboard names a model from a result file: ``id-method`` gives "model/method".
LABEL_STYLES = ("id-method", "id")


@dataclass
class ScoreTable:
    """Scores and task/model metadata gathered from one or more inputs."""

    records: list[tuple[str, str, float]] = field(default_factory=list)
    task_types: dict[str, str] = field(default_factory=dict)
    task_families: dict[str, str] = field(default_factory=dict)
    task_suites: dict[str, str] = field(default_factory=dict)
    task_metrics: dict[str, str] = field(default_factory=dict)
    task_directions: dict[str, bool] = field(default_factory=dict)  # recorded higher_is_better
    model_groups: dict[str, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)
    #: "model on task" of every result whose scorers ran code without a sandbox (``sandbox: none``)
    unsandboxed: list[str] = field(default_factory=list)
    #: (model, task) -> (scored, excluded): the samples x repeats a score rests on and those
    #: left unscored, where the input says (result files; CSV columns ``scored``/``excluded``)
    counts: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    #: (model, task) -> how a partial result chose its items (``--limit N``: the first N;
    #: ``--samples``: chosen ids), for every result of a subset of the test items
    limited: dict[tuple[str, str], str] = field(default_factory=dict)
    #: what the inputs lost before any board was planned (``--limit`` results left out), one
    #: line each, which every board's "left out" list repeats
    dropped: list[str] = field(default_factory=list)

    def drop_limited(self) -> list[str]:
        """Leave out the scores of ``--limit`` runs (a subset of the items is not comparable
        with full runs); one ``MODEL on TASK (--limit N)`` line each, for the notes."""
        if not self.limited:
            return []
        self.records = [r for r in self.records if (r[0], r[1]) not in self.limited]
        lines = [f"{m} on {t} ({how})" for (m, t), how in sorted(self.limited.items())]
        self.dropped += [f"{line}: scored on a subset of the items" for line in lines]
        self.limited = {}
        return lines

    def limited_for(self, models: Iterable[str], tasks: Iterable[str]) -> dict[str, Any]:
        """``{model: {task: N or how}}`` of the given cells that come from partial runs: ``N``
        for a ``--limit N`` run, the description (``--samples (K ids)``) for chosen ids."""
        tasks = list(tasks)
        out: dict[str, Any] = {}
        for model in models:
            cells = {
                t: _subset_value(self.limited[(model, t)])
                for t in tasks
                if (model, t) in self.limited
            }
            if cells:
                out[model] = cells
        return out

    def counts_for(self, models: Iterable[str], tasks: Iterable[str]) -> dict[str, Any]:
        """``{model: {task: {"scored": s, "excluded": e}}}`` for the given cells that have counts."""
        tasks = list(tasks)
        out: dict[str, Any] = {}
        for model in models:
            cells = {
                task: {
                    "scored": self.counts[(model, task)][0],
                    "excluded": self.counts[(model, task)][1],
                }
                for task in tasks
                if (model, task) in self.counts
            }
            if cells:
                out[model] = cells
        return out

    @property
    def tasks(self) -> list[str]:
        """Task names in first-seen order."""
        return list(dict.fromkeys(task for _, task, _ in self.records))

    def suite_of(self, task: str, registry: Registry) -> str | None:
        """The suite a task belongs to: as recorded, else the suite whose families list it."""
        if task in self.task_suites:
            return self.task_suites[task]
        owners = [s.name for s in registry.suites.values() if task in s.task_families]
        return owners[0] if len(owners) == 1 else None

    def to_matrix(self, registry: Registry) -> ScoreMatrix:
        """The score matrix; families and groups the inputs lack come from the registered
        suites, and tasks whose primary metric is lower-is-better are marked so."""
        tasks = self.tasks
        models = {model for model, _, _ in self.records}
        suite_families: dict[str, str] = {}
        suite_groups: dict[str, str] = {}
        for suite in registry.suites.values():
            suite_groups.update(suite.model_groups)
        for task in tasks:
            entry = registry.suites.get(self.suite_of(task, registry) or "")
            if entry is not None and task in entry.task_families:
                suite_families[task] = entry.task_families[task]
        families = {t: self.task_families.get(t) or suite_families.get(t, "unknown") for t in tasks}
        groups = {m: self.model_groups.get(m) or suite_groups.get(m, "") for m in models}
        groups = {m: g for m, g in groups.items() if g}
        lower = frozenset(
            t
            for t in tasks
            if not self.task_directions.get(t, higher_is_better(self.task_metrics.get(t), registry))
        )
        types = {t: normalise_task_type(v, registry.task_types) for t, v in self.task_types.items()}
        try:
            matrix = ScoreMatrix.from_records(self.records, types, families, groups)
        except ValueError as exc:
            raise SeebenchError(str(exc)) from None
        return matrix.with_lower_is_better(lower)


def higher_is_better(metric: str | None, registry: Registry) -> bool:
    """The registered direction of ``metric``; a score without a known metric counts as
    higher-is-better (so do scores of metrics from plugins that are not installed)."""
    entry = registry.metrics.get(metric or "")
    return True if entry is None else entry.higher_is_better


def compared_tasks(
    table: ScoreTable, registry: Registry, include_types: Iterable[str] = ()
) -> tuple[list[str], dict[str, str]]:
    """The tasks ``seebench compare`` ranks, and why each other task is left out.

    A task of a suite that declares ``compare_task_types`` is ranked when its type is one of
    them or in ``include_types``; every other task (no suite, a suite without that
    declaration, an unknown type) is ranked.
    """
    extra = {normalise_task_type(t) for t in include_types}
    kept: list[str] = []
    dropped: dict[str, str] = {}
    for task in table.tasks:
        suite = registry.suites.get(table.suite_of(task, registry) or "")
        recorded = table.task_types.get(task)  # None: the results do not say
        task_type = None if recorded is None else normalise_task_type(recorded, registry.task_types)
        if (
            suite is None
            or not suite.compare_task_types
            or task_type is None
            or normalise_task_type(task_type)
            in {*(normalise_task_type(t) for t in suite.compare_task_types), *extra}
        ):
            kept.append(task)
        else:
            dropped[task] = f"type {task_type} is not among suite {suite.name}'s compared types"
    return kept, dropped


def normalise_task_type(name: str, known: Iterable[str] = ()) -> str:
    """The task type ``name`` as registered: ``multi-class`` and ``Multi_Class`` become the
    registered ``multiclass``, ``copilot-fix`` the registered ``copilot_fix``.

    A name that matches none of ``known`` (the registered types) is lower-cased and keeps its
    underscores; without ``known`` the separators are dropped (the form names are matched in).
    """
    squashed = _squash(name)
    known = tuple(known)
    for candidate in known:
        if _squash(candidate) == squashed:
            return candidate
    return name.strip().lower() if known else squashed


def _squash(name: str) -> str:
    return name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")


def read_inputs(paths: Sequence[Path], label: str = "id-method") -> ScoreTable:
    """Read every input (directory of results or CSV file) into one :class:`ScoreTable`."""
    table = ScoreTable()
    for path in paths:
        if not path.exists():
            raise SeebenchError(f"{path}: no such file or directory")
        if path.is_dir():
            read_result_dir(path, table, label)
        elif path.suffix.lower() == ".csv":
            read_csv(path, table)
        else:
            raise SeebenchError(f"{path}: expected a results directory or a .csv file")
        table.sources.append(str(path))
    if not table.records:
        raise SeebenchError(f"no scores found in {', '.join(str(p) for p in paths)}")
    return table


#: The largest comparison CSV read (a leaderboard of thousands of cells is a few MiB).
CSV_MAX_BYTES = 256 * 1024 * 1024
#: The longest CSV field (model and task names, numbers); the csv module's own bound is 131,072.
CSV_MAX_FIELD = 4096
#: A plain decimal number: no ``1_0`` (Python reads it as 10), no hex, no words.
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_INFINITY = {"inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}


def read_csv(path: Path, table: ScoreTable) -> None:
    """Add the rows of a tidy score CSV to ``table``. The file must be a regular UTF-8 file
    (a BOM is allowed) within :data:`CSV_MAX_BYTES`; anything else, a malformed row or a
    score that is not a plain finite number within range is one line naming the file (and
    line), never quoting more than the offending value."""
    try:
        with safe_files.open_regular(
            path, CSV_MAX_BYTES, binary=False, newline="", encoding="utf-8-sig"
        ) as handle:
            _read_rows(csv.DictReader(handle), path, table)
    except UnicodeDecodeError:
        raise SeebenchError(f"{path}: not UTF-8 text; save the CSV as UTF-8") from None
    except csv.Error as exc:
        line = exc.args[0] if exc.args else "?"
        raise SeebenchError(f"{path}: not a well-formed CSV file ({str(line)[:80]})") from None


def _read_rows(reader: csv.DictReader, path: Path, table: ScoreTable) -> None:
    columns = set(_field_names(reader, path))
    needed = {"model", "task", "score"}
    if not needed <= columns:
        raise SeebenchError(f"{path}: missing column(s) {', '.join(sorted(needed - columns))}")
    type_column = "task_type" if "task_type" in columns else "type" if "type" in columns else None
    for line, row in enumerate(reader, start=2):
        _check_row(row, path, line)
        task = row["task"].strip()
        table.records.append((row["model"].strip(), task, _score(row["score"], path, line)))
        if type_column and row[type_column]:
            table.task_types[task] = row[type_column].strip().lower()
        for column, target in (
            ("family", table.task_families),
            ("suite", table.task_suites),
            ("metric", table.task_metrics),
        ):
            if (row.get(column) or "").strip():
                target[task] = row[column].strip()


def _field_names(reader: csv.DictReader, path: Path) -> list[str]:
    names = list(reader.fieldnames or ())
    for name in names:
        _check_cell(name, path, 1, "header")
    return names


def _check_row(row: dict[str | None, Any], path: Path, line: int) -> None:
    """One line unless every cell of ``row`` is a short text without control characters and
    the row has no fewer (and no more) cells than the header."""
    if None in row or any(value is None for value in row.values()):
        raise SeebenchError(f"{path}:{line}: the row does not have as many cells as the header")
    for column, value in row.items():
        _check_cell(value, path, line, str(column))


def _check_cell(value: str, path: Path, line: int, column: str) -> None:
    if len(value) > CSV_MAX_FIELD:
        raise SeebenchError(
            f"{path}:{line}: {column}: a cell of {len(value)} characters (at most {CSV_MAX_FIELD})"
        )
    if any(ord(c) < 32 and c not in "\t\r\n" or ord(c) == 127 for c in value):
        raise SeebenchError(f"{path}:{line}: {column}: holds a control character")


def _score(text: str | None, path: Path, line: int) -> float:
    value = (text or "").strip()
    if value.lower() in MISSING_MARKERS:
        return math.nan
    if value.lower() in _INFINITY:
        raise SeebenchError(f"{path}:{line}: score {value!r} is not a finite number")
    if not _DECIMAL.fullmatch(value):
        raise SeebenchError(f"{path}:{line}: score {value[:40]!r} is not a number")
    score = float(value)
    if not math.isfinite(score):  # 1e999
        raise SeebenchError(f"{path}:{line}: score {value!r} is not a finite number")
    if bad_number(score) is not None:  # 1e308: its mean and spread overflow
        raise SeebenchError(f"{path}:{line}: score {value!r} is out of range (|x| > {MAX_FLOAT:g})")
    return score


def read_result_dir(root: Path, table: ScoreTable, label: str = "id-method") -> None:
    """Add the successful units found below ``root`` to ``table``."""
    if label not in LABEL_STYLES:
        raise SeebenchError(f"unknown label style {label!r}; known: {', '.join(LABEL_STYLES)}")
    for path in sorted(root.rglob("*.json")):
        result = _load_result(path)
        if result is None or result.get("status") != "ok":
            continue
        model, task, score = _unit(result, path, label)
        table.records.append((model, task["name"], score))
        counted = _counts(result)
        if counted is not None:
            table.counts[(model, task["name"])] = counted
        subset = run_subset(result)
        if subset is not None:
            table.limited[(model, task["name"])] = subset
        if ran_without_sandbox(result):
            table.unsandboxed.append(f"{model} on {task['name']} ({path})")
        table.task_metrics[task["name"]] = metric = str(result["primary_metric"])
        recorded = ((result.get("metric_info") or {}).get(metric) or {}).get("higher_is_better")
        if isinstance(recorded, bool):  # the direction the result was scored with wins
            table.task_directions[task["name"]] = recorded
        if task.get("suite"):
            table.task_suites[task["name"]] = str(task["suite"])
        if task.get("type"):
            table.task_types[task["name"]] = str(task["type"]).strip()
        family = (task.get("tags") or {}).get("family")
        if family:
            table.task_families[task["name"]] = str(family)


def run_limit(result: dict[str, Any]) -> int | None:
    """The ``--limit`` a result was run with (``None``: all the task's test items)."""
    limit = (result.get("run") or {}).get("limit") if isinstance(result.get("run"), dict) else None
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def run_subset(result: dict[str, Any]) -> str | None:
    """How a partial result chose its test items (``--limit N`` or ``--samples (K ids)``);
    ``None`` for a result of every test item."""
    limit = run_limit(result)
    if limit is not None:
        return f"--limit {limit}"
    run = result.get("run")
    samples = run.get("samples") if isinstance(run, dict) else None
    if isinstance(samples, list):
        return f"--samples ({len(samples)} ids)"
    return None


def _subset_value(how: str) -> int | str:
    """``N`` of a ``--limit N`` subset; the description itself for any other subset."""
    parts = how.split()
    if len(parts) == 2 and parts[0] == "--limit" and parts[1].isdigit():
        return int(parts[1])
    return how


def _counts(result: dict[str, Any]) -> tuple[int, int] | None:
    """(scored, excluded) of a result: ``n`` x repeats less the unscored samples."""
    try:
        n = int(result["n"])
        repeats = int(((result.get("run") or {}).get("config") or {}).get("repeats") or 1)
        excluded = int((result.get("unscored") or {}).get("count", 0))
    except (KeyError, TypeError, ValueError):
        return None
    return max(0, n * repeats - excluded), excluded


def ran_without_sandbox(result: dict[str, Any]) -> bool:
    """Whether one of the result's scorers ran code outside a sandbox (``--unsafe-host-exec``)."""
    scorers = result.get("scorers")
    return isinstance(scorers, dict) and any(
        isinstance(identity, dict) and identity.get("sandbox") == "none"
        for identity in scorers.values()
    )


def _load_result(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(safe_files.read_text(path, RESULT_MAX_BYTES))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise SeebenchError(f"{path}: not a readable result file: {exc}") from None
    if not isinstance(data, dict) or "schema_version" not in data:
        return None  # some other JSON file (a manifest, a config): not a unit result
    bad = bad_number(data)
    if bad:
        raise SeebenchError(f"{path}: not a sane number: {bad}")
    return data


def _unit(result: dict[str, Any], path: Path, label: str) -> tuple[str, dict[str, Any], float]:
    try:
        model_id = str(result["model"]["id"])
        method = str(result["method"])
        task = result["task"]
        metric = result["primary_metric"]
        score = float(result["metrics"][metric])
        task["name"]  # noqa: B018 - checks the key exists
    except (KeyError, TypeError, ValueError) as exc:
        raise SeebenchError(
            f"{path}: result file lacks a usable score ({type(exc).__name__}: {exc})"
        ) from None
    if math.isinf(score):
        raise SeebenchError(f"{path}: score {score} of metric {metric!r} is not a finite number")
    name = f"{model_id}/{method}" if label == "id-method" else model_id
    return name, task, score


def read_model_groups(path: Path) -> dict[str, str]:
    """Model groups from a JSON object ``{model: group}`` or a CSV with ``model,group``."""
    try:
        if path.suffix.lower() == ".csv":
            opened = safe_files.open_regular(path, binary=False, newline="", encoding="utf-8")
            with opened as handle:
                return {row["model"]: row["group"] for row in csv.DictReader(handle)}
        data = json.loads(safe_files.read_text(path))
    except (OSError, KeyError, ValueError) as exc:
        raise SeebenchError(f"{path}: cannot read model groups: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("model_groups"), dict):
        data = data["model_groups"]
    if not isinstance(data, dict):
        raise SeebenchError(f"{path}: expected a JSON object mapping model names to groups")
    return {str(k): str(v) for k, v in data.items()}
