"""Task groups with aggregate scores (lm-eval's groups, seebench style).

A group names member tasks and/or member groups (nested) and how to aggregate: ``mean`` (each
member counts once) or ``weighted`` (each member by its test size, the result's ``n``; a
nested group weighs the sum of its members' sizes). Suites declare groups when they register
(``register_suites(..., task_groups=...)``), users in a YAML file of the same shape::

    groups:
      selu_binary:
        description: binary classification tasks
        tasks: [bug_issue, incivility]
        aggregate: mean            # of each member's primary metric (default: mean)
        metrics: {accuracy: weighted}   # optional: other metrics, each with its aggregation
      selu:
        groups: [selu_binary, selu_multiclass]

A group's row for a model aggregates the members that have a score; it says how many of its
members did (``n_tasks`` of ``n_members``). The primary metric row is named ``primary``: the
members' own primary metrics, which may differ (F1 for one task, 1 - SMAPE for another), as
the SELU paper averages them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.errors import SeebenchError

AGGREGATIONS = ("mean", "weighted")
PRIMARY = "primary"
_KEYS = {"description", "tasks", "groups", "aggregate", "metrics"}
#: The file ``seebench eval`` writes beside a model's results; hidden, so that the commands that
#: walk results (``results check``, ``compare``, ``view``) never take it for a unit.
RECORD_NAME = ".task_groups.json"


@dataclass(frozen=True)
class TaskGroup:
    """One group: member tasks and groups, and the aggregation of each metric."""

    name: str
    tasks: tuple[str, ...] = ()
    groups: tuple[str, ...] = ()
    aggregations: Mapping[str, str] = field(default_factory=lambda: {PRIMARY: "mean"})
    description: str = ""
    source: str = ""


@dataclass(frozen=True)
class GroupRow:
    """A group's aggregate of one metric for one model."""

    group: str
    depth: int
    metric: str
    value: float | None
    n_tasks: int
    n_members: int
    aggregation: str
    n: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


class GroupSet:
    """Groups by name, checked: known members, no cycles."""

    def __init__(self, groups: Iterable[TaskGroup] = ()) -> None:
        self.groups: dict[str, TaskGroup] = {}
        for group in groups:
            self.add(group)

    def add(self, group: TaskGroup) -> None:
        if group.name in self.groups:
            other = self.groups[group.name].source
            raise SeebenchError(
                f"{group.source}: task group {group.name!r} is already declared by {other}"
            )
        self.groups[group.name] = group

    def check(self) -> GroupSet:
        """Raise a one-line error for an unknown member group or a cycle; returns ``self``."""
        for group in self.groups.values():
            for member in group.groups:
                if member not in self.groups:
                    raise SeebenchError(
                        f"{group.source}: groups.{group.name}.groups: unknown group {member!r}"
                    )
        for name in self.groups:
            self._tasks(name, ())
        return self

    def _tasks(self, name: str, path: tuple[str, ...]) -> set[str]:
        if name in path:
            cycle = " -> ".join((*path, name))
            raise SeebenchError(f"{self.groups[name].source}: task groups form a cycle: {cycle}")
        group = self.groups[name]
        found = set(group.tasks)
        for member in group.groups:
            found |= self._tasks(member, (*path, name))
        return found

    def tasks_of(self, name: str) -> set[str]:
        """Every task below group ``name``, nested groups included."""
        return self._tasks(name, ())

    def roots(self) -> list[str]:
        """Groups that are no other group's member, in declaration order."""
        nested = {m for g in self.groups.values() for m in g.groups}
        return [name for name in self.groups if name not in nested]

    def __bool__(self) -> bool:
        return bool(self.groups)


def parse_groups(data: Any, source: str) -> list[TaskGroup]:
    """The groups of a mapping ``{"groups": {name: {...}}}``; errors name ``source`` and the
    key path."""
    if not isinstance(data, Mapping) or set(data) != {"groups"}:
        raise SeebenchError(f"{source}: expected one top-level key 'groups'")
    groups = data["groups"]
    if not isinstance(groups, Mapping) or not groups:
        raise SeebenchError(f"{source}: groups: expected a mapping of group names")
    out = []
    for name, body in groups.items():
        where = f"{source}: groups.{name}"
        if not isinstance(name, str) or not name:
            raise SeebenchError(f"{source}: groups: group name {name!r} is not a string")
        if not isinstance(body, Mapping):
            raise SeebenchError(f"{where}: expected a mapping")
        unknown = set(body) - _KEYS
        if unknown:
            raise SeebenchError(f"{where}: unknown key(s) {', '.join(sorted(map(str, unknown)))}")
        tasks, members = (
            _names(body.get("tasks"), f"{where}.tasks"),
            _names(body.get("groups"), f"{where}.groups"),
        )
        if not tasks and not members:
            raise SeebenchError(f"{where}: needs 'tasks' or 'groups'")
        aggregations = {PRIMARY: _aggregation(body.get("aggregate", "mean"), f"{where}.aggregate")}
        metrics = body.get("metrics") or {}
        if not isinstance(metrics, Mapping):
            raise SeebenchError(f"{where}.metrics: expected a mapping metric: mean|weighted")
        for metric, how in metrics.items():
            aggregations[str(metric)] = _aggregation(how, f"{where}.metrics.{metric}")
        description = body.get("description", "")
        if not isinstance(description, str):
            raise SeebenchError(f"{where}.description: expected a string")
        out.append(TaskGroup(name, tasks, members, aggregations, description, source))
    return out


def _names(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise SeebenchError(f"{where}: expected a list of names, got {value!r:.80}")
    if len(set(value)) != len(value):
        raise SeebenchError(f"{where}: a name is listed twice")
    return tuple(value)


def _aggregation(value: Any, where: str) -> str:
    if value not in AGGREGATIONS:
        raise SeebenchError(f"{where}: {value!r} is not one of {', '.join(AGGREGATIONS)}")
    return value


def read_group_file(path: Path) -> list[TaskGroup]:
    """The groups of a YAML file (see the module docstring)."""
    import yaml

    from seebench.tasks.yaml_loader import safe_load

    try:
        data = safe_load(safe_files.read_text(path, safe_files.TEXT_MAX_BYTES))
    except (safe_files.NotTextError, safe_files.UnsafeFileError):
        raise  # one line naming the file already
    except (OSError, UnicodeDecodeError) as exc:
        raise SeebenchError(f"{path}: cannot read task groups: {exc}") from None
    except yaml.YAMLError as exc:
        raise SeebenchError(f"{path}: not valid YAML: {str(exc).splitlines()[0]}") from None
    return parse_groups(data, str(path))


def collect_groups(registry: Any, files: Iterable[Path] = ()) -> GroupSet:
    """The groups every registered suite declares, plus those of ``files``, checked."""
    groups = GroupSet()
    for suite in registry.suites.values():
        declared = getattr(suite, "task_groups", None)
        if declared:
            for group in parse_groups(declared, f"suite {suite.name} ({suite.plugin})"):
                groups.add(group)
    for path in files:
        for group in read_group_file(path):
            groups.add(group)
    return groups.check()


def group_scores(groups: GroupSet, results: Mapping[str, Mapping[str, Any]]) -> list[GroupRow]:
    """One model's group rows from its results by task name (each with ``metrics``,
    ``primary_metric`` and ``n``), depth first from the top groups; groups none of whose
    tasks has a result are left out."""
    rows: list[GroupRow] = []

    def value_of(task: str, metric: str) -> float | None:
        result = results.get(task)
        if not result:
            return None
        name = result.get("primary_metric") if metric == PRIMARY else metric
        value = (result.get("metrics") or {}).get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        return float(value) if math.isfinite(value) else None

    def aggregate(name: str, metric: str) -> tuple[float | None, int, int]:
        """(value, weight = total test size, members with a value)."""
        group = groups.groups[name]
        how = group.aggregations.get(metric, group.aggregations[PRIMARY])
        parts: list[tuple[float, int]] = []
        for task in group.tasks:
            value = value_of(task, metric)
            if value is not None:
                parts.append((value, int(results[task].get("n") or 0)))
        for member in group.groups:
            value, weight, _ = aggregate(member, metric)
            if value is not None:
                parts.append((value, weight))
        if not parts:
            return None, 0, 0
        total = sum(w for _, w in parts)
        if how == "weighted" and total > 0:
            return sum(v * w for v, w in parts) / total, total, len(parts)
        return sum(v for v, _ in parts) / len(parts), total, len(parts)

    def visit(name: str, depth: int) -> None:
        group = groups.groups[name]
        if not groups.tasks_of(name) & set(results):
            return
        for metric in group.aggregations:
            value, weight, present = aggregate(name, metric)
            rows.append(
                GroupRow(
                    name,
                    depth,
                    metric,
                    value,
                    present,
                    len(group.tasks) + len(group.groups),
                    group.aggregations[metric],
                    weight,
                )
            )
        for member in group.groups:
            visit(member, depth + 1)

    for root in groups.roots():
        visit(root, 0)
    return rows


def matrix_group_scores(groups: GroupSet, matrix: Any) -> list[dict[str, Any]]:
    """Group rows of a leaderboard's score matrix: per model, the primary scores of the
    group's tasks aggregated as declared (``weighted`` counts each task once: a score table
    has no test sizes)."""
    rows: list[dict[str, Any]] = []
    per_model = []
    for m, _ in enumerate(matrix.models):
        results = {}
        for t, task in enumerate(matrix.tasks):
            score = float(matrix.scores[t, m])
            if not math.isnan(score):
                results[task] = {"metrics": {"score": score}, "primary_metric": "score", "n": 1}
        per_model.append({(r.group, r.metric): r for r in group_scores(groups, results)})
    order: list[tuple[str, str, int, str]] = []
    for table in per_model:
        for (group, metric), row in table.items():
            if metric == PRIMARY and (group, metric, row.depth, row.aggregation) not in order:
                order.append((group, metric, row.depth, row.aggregation))
    for group, metric, depth, aggregation in order:
        values = [table.get((group, metric)) for table in per_model]
        rows.append(
            {
                "name": group,
                "depth": depth,
                "aggregation": aggregation,
                "scores": [v.value if v is not None else None for v in values],
            }
        )
    return rows


def record_groups(path: Path, model: str, method: str, rows: list[GroupRow]) -> None:
    """Write one model's group rows as JSON (atomically)."""
    from seebench.results.io import atomic_write_text

    body = {"model": model, "method": method, "groups": [r.as_dict() for r in rows]}
    atomic_write_text(path, json.dumps(body, indent=1) + "\n")


def outcome_results(outcomes: Iterable[Any]) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """The scored units of a run (``eval``'s outcomes) by (model id, method), then task."""
    out: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for o in outcomes:
        if o.status in ("ok", "cached") and o.metrics:
            out.setdefault((o.model_id, o.method), {})[o.task] = {
                "metrics": o.metrics,
                "primary_metric": o.primary_metric,
                "n": o.n,
            }
    return out


def group_table(title: str, rows: list[GroupRow]) -> Any:
    """A rich table of group rows (indented by nesting)."""
    from rich.table import Table

    table = Table(title=title)
    for header, justify in (
        ("group", "left"),
        ("metric", "left"),
        ("value", "right"),
        ("tasks", "right"),
        ("aggregation", "left"),
    ):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        table.add_row(
            "  " * row.depth + row.group,
            row.metric,
            "-" if row.value is None else f"{row.value:.4f}",
            f"{row.n_tasks}/{row.n_members}",
            row.aggregation,
        )
    return table


def report_groups(registry: Any, outcomes: Iterable[Any], output: Path, console: Any) -> None:
    """After ``eval``: print each model's group rows and record them beside its results as
    :data:`RECORD_NAME`. A bad group declaration is reported in one line, not raised."""
    try:
        groups = collect_groups(registry)
    except SeebenchError as exc:
        console.print(f"task groups not shown: {exc}")
        return
    if not groups:
        return
    for (model, method), results in outcome_results(outcomes).items():
        rows = group_scores(groups, results)
        if rows:
            console.print(group_table(f"task groups: {model} / {method}", rows))
            record_groups(Path(output) / model / method / RECORD_NAME, model, method, rows)


def export_groups(report: Any, out_dir: Path) -> list[Path]:
    """The ``groups`` exporter: ``groups.csv``, each declared task group's aggregate of the
    ranked scores per model (``report.extra["task_groups"]``, filled by ``seebench compare``);
    nothing when no group has a ranked task."""
    from seebench.csv_files import write_rows

    rows = report.extra.get("task_groups") or []
    if not rows:
        return []
    header = ["group", "depth", "aggregation", *report.matrix.models]
    cells = (
        [row["name"], row["depth"], row["aggregation"]]
        + ["" if v is None else f"{v:.6g}" for v in row["scores"]]
        for row in rows
    )
    return [write_rows(Path(out_dir) / "groups.csv", header, cells)]
