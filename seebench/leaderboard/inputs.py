"""Reading scores for ``seebench compare``: result directories and tidy CSV files.

A result directory holds ``<model-id>/<method>/<task>.json`` files written by ``seebench run``;
only units with ``status == "ok"`` count and their score is ``metrics[primary_metric]``. A CSV
has the columns ``model``, ``task`` and ``score`` and optionally ``task_type`` (or ``type``)
and ``family``; a score of ``-``, ``NA`` or an empty cell is missing.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError
from seebench.stats.matrix import ScoreMatrix

MISSING_MARKERS = {"", "-", "na", "nan", "n/a", "none", "null"}

#: How a leaderboard names a model from a result file: ``id-method`` gives "model/method".
LABEL_STYLES = ("id-method", "id")


@dataclass
class ScoreTable:
    """Scores and task/model metadata gathered from one or more inputs."""

    records: list[tuple[str, str, float]] = field(default_factory=list)
    task_types: dict[str, str] = field(default_factory=dict)
    task_families: dict[str, str] = field(default_factory=dict)
    model_groups: dict[str, str] = field(default_factory=dict)
    sources: list[str] = field(default_factory=list)

    def to_matrix(self) -> ScoreMatrix:
        """The score matrix, with SELU's families and groups filling unknown entries."""
        selu = selu_metadata()
        tasks = {task for _, task, _ in self.records}
        models = {model for model, _, _ in self.records}
        families = {t: self.task_families.get(t) or selu["task_families"].get(t, "unknown") for t in tasks}
        groups = {m: self.model_groups.get(m) or selu["model_groups"].get(m, "") for m in models}
        groups = {m: g for m, g in groups.items() if g}
        try:
            return ScoreMatrix.from_records(self.records, self.task_types, families, groups)
        except ValueError as exc:
            raise SeebenchError(str(exc)) from None


def normalise_task_type(name: str) -> str:
    """``multi-class`` and ``multi_class`` become ``multiclass``; names are lower-cased."""
    return name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")


@cache
def selu_metadata() -> dict[str, dict[str, str]]:
    """The SELU task families (paper Table II) and model groups (Table III)."""
    text = resources.files("seebench.stats").joinpath("selu_families.json").read_text("utf-8")
    data = json.loads(text)
    return {"task_families": data["task_families"], "model_groups": data["model_groups"]}


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


def read_csv(path: Path, table: ScoreTable) -> None:
    """Add the rows of a tidy score CSV to ``table``."""
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        columns = set(reader.fieldnames or ())
        needed = {"model", "task", "score"}
        if not needed <= columns:
            raise SeebenchError(f"{path}: missing column(s) {', '.join(sorted(needed - columns))}")
        type_column = "task_type" if "task_type" in columns else "type" if "type" in columns else None
        for line, row in enumerate(reader, start=2):
            task = row["task"].strip()
            table.records.append((row["model"].strip(), task, _score(row["score"], path, line)))
            if type_column and row[type_column]:
                table.task_types[task] = normalise_task_type(row[type_column])
            if row.get("family"):
                table.task_families[task] = row["family"].strip()


def _score(text: str | None, path: Path, line: int) -> float:
    value = (text or "").strip()
    if value.lower() in MISSING_MARKERS:
        return math.nan
    try:
        score = float(value)
    except ValueError:
        raise SeebenchError(f"{path}:{line}: score {value!r} is not a number") from None
    if math.isinf(score):  # nan spellings are "missing" above; infinity is an error upstream
        raise SeebenchError(f"{path}:{line}: score {value!r} is not a finite number")
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
        if task.get("type"):
            table.task_types[task["name"]] = normalise_task_type(str(task["type"]))
        family = (task.get("tags") or {}).get("family")
        if family:
            table.task_families[task["name"]] = str(family)


def _load_result(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SeebenchError(f"{path}: not a readable result file: {exc}") from None
    if not isinstance(data, dict) or "schema_version" not in data:
        return None  # some other JSON file (a manifest, a config): not a unit result
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
        raise SeebenchError(f"{path}: result file lacks a usable score ({type(exc).__name__}: {exc})") from None
    if math.isinf(score):
        raise SeebenchError(f"{path}: score {score} of metric {metric!r} is not a finite number")
    name = f"{model_id}/{method}" if label == "id-method" else model_id
    return name, task, score


def read_model_groups(path: Path) -> dict[str, str]:
    """Model groups from a JSON object ``{model: group}`` or a CSV with ``model,group``."""
    try:
        if path.suffix.lower() == ".csv":
            with path.open(newline="", encoding="utf-8") as handle:
                return {row["model"]: row["group"] for row in csv.DictReader(handle)}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, KeyError, json.JSONDecodeError) as exc:
        raise SeebenchError(f"{path}: cannot read model groups: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("model_groups"), dict):
        data = data["model_groups"]
    if not isinstance(data, dict):
        raise SeebenchError(f"{path}: expected a JSON object mapping model names to groups")
    return {str(k): str(v) for k, v in data.items()}
