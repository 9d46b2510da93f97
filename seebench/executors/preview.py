"""``seebench eval --plan``: what a run would do with each unit of its plan, and why, without
running, writing or starting anything."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from seebench.executors.plan import Unit

#: what a unit may do, in the order the summary counts them
ACTIONS = ("run", "score", "reuse", "skip", "not_applicable", "fail")


@dataclass(frozen=True)
class UnitPreview:
    """One unit of a dry run: ``action`` (run, reuse, score, not_applicable, skip, fail) and
    the one-line reason."""

    unit: Unit
    action: str
    why: str


def preview_sweep(units: list[Unit], runners: dict[str, Any]) -> list[UnitPreview]:
    """What each of ``units`` would do (``runners``: model spec -> runner, from
    :func:`~seebench.executors.plan.plan_sweep`)."""
    previews = []
    for unit in units:
        runner = runners[unit.model_spec]
        runner.config = unit.config
        action, why = runner.preview(runner.index.get(unit.task))
        previews.append(UnitPreview(unit, action, why))
    return previews


def preview_lines(previews: list[UnitPreview]) -> list[str]:
    """One line per unit (``key  action  why``) and a count of each action."""
    width = max((len(p.unit.key) for p in previews), default=0)
    lines = [f"{p.unit.key:<{width}}  {p.action:<14}  {p.why}" for p in previews]
    counts = Counter(p.action for p in previews)
    order = {action: i for i, action in enumerate(ACTIONS)}
    ranked = sorted(counts.items(), key=lambda item: order.get(item[0], len(order)))
    summary = ", ".join(f"{n} {action}" for action, n in ranked)
    lines.append(f"{len(previews)} unit(s): {summary or 'none'} (nothing was run: --plan)")
    return lines
