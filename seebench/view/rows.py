"""Table rows of a unit for the runs table, a task page and a unit's header: every figure a
result records (metrics with intervals, invalid rate, time, tokens, cost, config hash,
plugin and package versions), read defensively since a damaged unit's fields may be anything."""

from __future__ import annotations

import json
from typing import Any

from seebench.leaderboard.inputs import run_subset
from seebench.view import render
from seebench.view.catalog import Unit


def _dict(data: dict[str, Any], key: str) -> dict[str, Any]:
    """``data[key]`` when it is a dict, else an empty one (a damaged unit's field)."""
    value = data.get(key)
    return value if isinstance(value, dict) else {}


def run_row(unit: Unit) -> dict[str, Any]:
    """The runs-table row of ``unit``."""
    data = unit.data
    metrics = _dict(data, "metrics")
    primary = data["primary_metric"] if isinstance(data.get("primary_metric"), str) else ""
    info = _dict(data, "metric_info")
    extra = _dict(data, "info")
    usage = _dict(extra, "usage")
    timings = _dict(data, "timings")
    env = _dict(data, "environment")
    packages = _dict(env, "packages")
    run = _dict(data, "run")
    config = _dict(run, "config")
    plugins = _dict(config, "plugins")
    reason = unit.problem or (data.get("reason") if unit.status != "ok" else None)
    tokens = usage.get("total_tokens") or sum(
        v for v in usage.values() if isinstance(v, int) and not isinstance(v, bool)
    )
    invalid = data.get("invalid_rate")
    total_s = timings.get("total_s")
    cost = extra.get("cost_usd")
    return {
        "uid": unit.uid,
        "task": unit.task,
        "suite": unit.suite,
        "model": unit.model,
        "method": unit.method,
        "status": unit.status,
        "reason": str(reason) if reason else "",
        "metric": primary,
        "value": metrics.get(primary),
        "ci": render.interval((info.get(primary) or {}).get("ci95")) if primary else "",
        "others": [(k, v) for k, v in metrics.items() if k != primary],
        "n": data.get("n", ""),
        "subset": run_subset(data),  # --limit N / --samples: a partial result
        "task_href": f"task/{unit.task}.html" if render.TASK_NAME.match(unit.task) else "",
        "invalid": f"{invalid:.1%}" if isinstance(invalid, int | float) else "",
        "time": f"{total_s:.1f}" if isinstance(total_s, int | float) else "",
        "tokens": tokens or "",
        "cost": f"{cost:.4f}" if isinstance(cost, int | float) else "",
        "config_hash": run.get("config_hash", ""),
        "unscored": unscored(unit),
        "versions": [
            *sorted((str(k), str(v)) for k, v in plugins.items()),  # plugin: distribution
            *sorted((str(k), str(v)) for k, v in packages.items()),
        ],
    }


def unit_summary(unit: Unit) -> dict[str, Any] | None:
    """The metrics (with interval and direction) and the fields of a unit's result."""
    data = unit.data
    if not data:
        return None
    metrics = _dict(data, "metrics")
    info = _dict(data, "metric_info")
    rows = []
    for name, value in metrics.items():
        meta = _dict(info, name)
        rows.append(
            {
                "name": name,
                "value": value,
                "primary": name == data.get("primary_metric"),
                "ci": render.interval(meta.get("ci95")),
                "hib": meta.get("higher_is_better", ""),
            }
        )
    fields = json.dumps(data, indent=1, ensure_ascii=False, default=str)[:200_000]
    return {"metrics": rows, "fields": fields}


#: The reliability diagram's plot area (SVG units) and margin.
PLOT, MARGIN = 200, 30


def unscored(unit: Unit) -> dict[str, Any] | None:
    """How many samples were left unscored (an infrastructure failure: not the model's) and
    why, from the result's ``unscored`` field; ``None`` when all were scored."""
    field = _dict(unit.data, "unscored")
    count = field.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
        return None
    reasons = _dict(field, "reasons")
    n = unit.data.get("n")
    return {
        "count": count,
        "of": n if isinstance(n, int) else "",
        "reasons": ", ".join(f"{k}: {v}" for k, v in reasons.items()),
    }


def reliability(unit: Unit) -> dict[str, Any] | None:
    """The reliability diagram of a log-likelihood result (``info.loglik.reliability``: per
    confidence bin its count, mean confidence and accuracy) with its ECE, as SVG shapes;
    ``None`` for results without one."""
    loglik = _dict(_dict(unit.data, "info"), "loglik")
    bins = loglik.get("reliability")
    if not isinstance(bins, list) or not bins:
        return None
    bars = []
    for entry in bins:
        try:
            low, high = (float(x) for x in entry["bin"])
            confidence, accuracy = float(entry["confidence"]), float(entry["accuracy"])
            count = int(entry["count"])
        except (TypeError, KeyError, ValueError):
            continue
        if not all(0.0 <= v <= 1.0 for v in (low, high, confidence, accuracy)) or high < low:
            continue
        bars.append(
            {
                "x": MARGIN + low * PLOT,
                "width": max(1.0, (high - low) * PLOT - 1),
                "y": MARGIN + (1 - accuracy) * PLOT,
                "height": accuracy * PLOT,
                "cx": MARGIN + confidence * PLOT,
                "cy": MARGIN + (1 - confidence) * PLOT,
                "bin": f"[{low:.1f}, {high:.1f})",
                "count": count,
                "confidence": confidence,
                "accuracy": accuracy,
            }
        )
    if not bars:
        return None
    ece = loglik.get("ece")
    return {
        "bars": bars,
        "ece": float(ece) if isinstance(ece, int | float) else None,
        "plot": PLOT,
        "margin": MARGIN,
        "size": PLOT + 2 * MARGIN,
    }
