"""Frozen event objects passed to observer hooks (adding a field later breaks no plugin)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class UnitFinished:
    """One (model, method, task) unit has ended, whatever its status."""

    model_id: str
    method: str
    task: str
    status: str  # "ok", "skipped", "not_applicable", "failed", "cached"
    reason: str | None = None
    metrics: dict[str, float] = field(default_factory=dict)
    result_path: Path | None = None
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)
