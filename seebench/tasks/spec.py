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

    @classmethod
    def from_document(cls, document: dict[str, Any], path: Path) -> TaskSpec:
        """Build a spec from a mapping that already passed validation."""
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
            metrics=tuple(document["metrics"]),
        )

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
