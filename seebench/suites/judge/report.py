"""Agreement of every released judging method with the humans, as table rows.

For a scoring task each method gets the study's pooled coefficients (values as released,
failures included) next to seebench's (unscored values left out), the per-input coefficients,
bootstrap intervals and the unscored rate. For a comparison task each method gets accuracy,
order-swap consistency and position bias (:mod:`seebench.suites.judge.comparison`).
"""

from __future__ import annotations

import math
from typing import Any

from seebench.suites.judge.agreement import COEFFICIENTS, DEFAULT_BOOTSTRAP, score_agreement
from seebench.suites.judge.comparison import compare_with_human
from seebench.suites.judge.methods import RELEASED_METHODS
from seebench.suites.judge.readers import ReleasedTask


def released_agreement(
    task: ReleasedTask, *, n_bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = 0
) -> list[dict[str, Any]]:
    """One row per released method of ``task`` (in the study's file order)."""
    rows: list[dict[str, Any]] = []
    for name, values in task.methods.items():
        method = RELEASED_METHODS[name]
        row: dict[str, Any] = {"task": task.name, "method": name, "family": method.family}
        if task.variant == "comparison":
            report = compare_with_human(values, task.human, task.pairs())
            row.update(report.as_dict())
            rows.append(row)
            continue
        flags = [method.is_unscored(v) for v in values]
        as_released = score_agreement(
            values, task.human, task.input_ids, unscored=flags, policy="keep", n_bootstrap=0
        )
        honest = score_agreement(
            values,
            task.human,
            task.input_ids,
            unscored=flags,
            policy="drop",
            n_bootstrap=n_bootstrap,
            seed=seed,
        )
        row["unscored_rate"] = honest.unscored_rate
        for coefficient in COEFFICIENTS:
            row[f"{coefficient}_as_released"] = as_released.pooled[coefficient]
            row[f"{coefficient}_pooled"] = honest.pooled[coefficient]
            row[f"{coefficient}_pooled_ci"] = honest.pooled_interval[coefficient]
            row[f"{coefficient}_per_input"] = honest.per_input[coefficient]
            row[f"{coefficient}_per_input_ci"] = honest.per_input_interval[coefficient]
            row[f"{coefficient}_inputs_defined"] = honest.per_input_defined[coefficient]
        rows.append(row)
    return rows


def _cell(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    if isinstance(value, float):
        return "n/a" if math.isnan(value) else f"{value:.3f}"
    return str(value)


def markdown_table(rows: list[dict[str, Any]], columns: list[str]) -> str:
    """A Markdown table of the chosen columns of ``rows``."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_cell(row.get(c, "")) for c in columns) + " |" for row in rows]
    return "\n".join(lines)
