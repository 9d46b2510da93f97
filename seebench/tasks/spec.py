"""Typed view of a validated task YAML."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Label:
    """One class or label of a classification task."""

    name: str
    value: Any = None
    description: str = ""
    synonyms: tuple[str, ...] = ()

    @property
    def raw_value(self) -> Any:
        """The value used in the data files (``name`` when no ``value`` is given)."""
        return self.name if self.value is None else self.value


@dataclass(frozen=True)
class TaskSpec:
    """A validated task. ``raw`` keeps the merged YAML mapping for plugin-specific keys."""

    name: str
    suite: str
    version: str
    type: str
    path: Path
    raw: dict[str, Any] = field(repr=False)
    description: str = ""
    labels: tuple[Label, ...] = ()
    tags: dict[str, Any] = field(default_factory=dict)
    metrics: tuple[str, ...] = ()
    type_object: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def from_document(cls, document: dict[str, Any], path: Path, type_object: Any) -> TaskSpec:
        """Build a spec from a mapping that already passed validation.

        ``type_object`` is the registered :class:`~seebench.tasks.types.TaskType` of the
        document's ``type`` (``registry.task_type(document["type"]).load()``).
        """
        labels = tuple(
            Label(
                name=str(item["name"]),
                value=item.get("value"),
                description=item.get("description", ""),
                synonyms=tuple(item.get("synonyms", ())),
            )
            for item in document.get("labels", ())
        )
        return cls(
            name=document["name"],
            suite=document["suite"],
            version=str(document["version"]),
            type=document["type"],
            path=path,
            raw=document,
            description=document.get("description", ""),
            labels=labels,
            tags=dict(document.get("tags", {})),
            metrics=tuple(_name(m) for m in document.get("metrics") or type_object.default_metrics),
            type_object=type_object,
        )

    @property
    def behaviour(self) -> Any:
        """The task type's behaviour object (:class:`~seebench.tasks.types.TaskType`)."""
        return self.type_object

    @property
    def target_kind(self) -> str | None:
        """What the task's targets are (``label``, ``label_set``, ``number``...; see
        :mod:`seebench.tasks.types`): generic methods and metrics decide by it."""
        return self.behaviour.target_kind

    @property
    def is_binary(self) -> bool:
        """One label per input, out of exactly two."""
        from seebench.tasks.types import LABEL

        return self.target_kind == LABEL and len(self.labels) == 2

    def metric_options(self, name: str) -> dict[str, Any]:
        """Options given to metric ``name`` in the task's ``metrics:`` list."""
        return _options_of(self.raw.get("metrics") or (), name)

    @property
    def scorers(self) -> tuple[str, ...]:
        """Per-sample scorers named in ``scorers:`` (empty: the type's own sample score)."""
        return tuple(_name(s) for s in self.raw.get("scorers") or ())

    def scorer_options(self, name: str) -> dict[str, Any]:
        return _options_of(self.raw.get("scorers") or (), name)

    @property
    def repeats(self) -> int:
        """Generations per test item (1 unless the task or ``-o repeats=n`` asks for more)."""
        return int(self.raw.get("repeats", 1))

    @property
    def pass_k(self) -> tuple[int, ...]:
        return tuple(int(k) for k in self.raw.get("pass_k") or ())

    @property
    def primary_metric(self) -> str:
        """The metric a leaderboard ranks by: the first one listed."""
        return self.metrics[0]

    @property
    def label_names(self) -> list[str]:
        return [label.name for label in self.labels]

    @property
    def value_range(self) -> tuple[float, float] | None:
        value_range = self.raw.get("value_range")
        return (float(value_range[0]), float(value_range[1])) if value_range else None

    @property
    def data(self) -> dict[str, Any]:
        return self.raw.get("data", {})

    @property
    def split(self) -> dict[str, Any]:
        return self.raw.get("split", {})

    @property
    def shots(self) -> dict[str, Any]:
        return self.raw.get("shots", {})

    @property
    def prompt(self) -> dict[str, Any]:
        return self.raw.get("prompt", {})

    @property
    def family(self) -> str | None:
        return self.tags.get("family")

    @property
    def activity(self) -> str | None:
        return self.tags.get("activity")

    def method_options(self, method: str) -> dict[str, Any]:
        """Per-method option overrides declared under ``methods:``."""
        return dict(self.raw.get("methods", {}).get(method, {}))

    @property
    def config_hash(self) -> str:
        """A hash of the whole merged definition (changes whenever the YAML's meaning does)."""
        blob = json.dumps(self.raw, sort_keys=True, default=str).encode()
        return hashlib.sha256(blob).hexdigest()[:16]

    def summary(self) -> dict[str, Any]:
        """The identifying fields written into every result."""
        return {
            "name": self.name,
            "suite": self.suite,
            "version": self.version,
            "type": self.type,
            "tags": self.tags,
            "config_hash": self.config_hash,
        }


def _name(item: Any) -> str:
    return item if isinstance(item, str) else str(item["name"])


def _options_of(items: Any, name: str) -> dict[str, Any]:
    for item in items:
        if isinstance(item, dict) and item.get("name") == name:
            return dict(item.get("options") or {})
    return {}
