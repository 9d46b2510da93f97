"""From the released files' rows to judging items: the suite's data preparation step.

A judging task declares two sources, the responses (``test-?-responded.jsonl``) and the human
scores (``test-0-human.jsonl``, read as ``{"value": number}`` rows); the generic reader tags each
row with its source name. :func:`join_released` joins them into one row per judged unit:

- scoring: one row per response; ``input`` holds the task input, the response, the reference
  and the languages, ``target`` the human score;
- comparison: one row per ordered pair of responses to the same input (the study's order);
  ``input`` holds both responses, ``target`` the difference of their human scores.

The target is ``{"human": score, "input_group": g}`` (plus ``"pair": [j, k]`` for comparisons):
which task input a judged unit belongs to travels with its gold, so agreement metrics can work
per input and find the other order of a pair.
"""

from __future__ import annotations

import math
from typing import Any

from seebench.suites.judge.readers import RESPONSE_KEYS, JudgeDataError, group_ids, ordered_pairs

SOURCE_KEY = "_source"


def _responses(rows: list[dict[str, Any]], source: str) -> list[dict[str, Any]]:
    chosen = [row for row in rows if row.get(SOURCE_KEY) == source]
    if not chosen:
        raise JudgeDataError(f"no rows from source {source!r}")
    for number, row in enumerate(chosen, start=1):
        missing = [key for key in RESPONSE_KEYS if key not in row]
        if missing:
            raise JudgeDataError(f"source {source!r}, row {number}: missing {', '.join(missing)}")
    return chosen


def _numbers(rows: list[dict[str, Any]], source: str) -> list[float]:
    values: list[float] = []
    for number, row in enumerate((r for r in rows if r.get(SOURCE_KEY) == source), start=1):
        value = row.get("value")
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise JudgeDataError(f"source {source!r}, row {number}: {value!r} is not a number")
        values.append(float(value))
    if not values:
        raise JudgeDataError(f"no rows from source {source!r}")
    return values


def join_released(
    rows: list[dict[str, Any]],
    *,
    variant: str,
    responses: str = "responses",
    human: str = "human",
) -> list[dict[str, Any]]:
    """Join response rows and human-score rows into judging items (see the module docstring).

    Rows of any other source are a released judging method's scores (the source is named after
    the method); each item keeps them under ``released`` so ``released:<method>`` can replay them.
    """
    if variant not in ("scoring", "comparison"):
        raise JudgeDataError(f"variant must be scoring or comparison, not {variant!r}")
    records = _responses(rows, responses)
    scores = _numbers(rows, human)
    others = sorted({str(r.get(SOURCE_KEY)) for r in rows} - {responses, human})
    released = {name: _numbers(rows, name) for name in others}
    for name, values in released.items():
        if len(values) != len(scores):
            raise JudgeDataError(
                f"source {name!r} has {len(values)} scores, source {human!r} has {len(scores)}"
            )
    groups = group_ids([str(r["input"]) for r in records])
    units = (
        [(groups[i], (i,)) for i in range(len(records))]
        if variant == "scoring"
        else [(g, (j, k)) for g, j, k in ordered_pairs(groups)]
    )
    if len(scores) != len(units):
        unit = "response" if variant == "scoring" else "ordered response pair"
        raise JudgeDataError(
            f"source {human!r} has {len(scores)} scores for {len(units)} items (one per {unit})"
        )
    joined: list[dict[str, Any]] = []
    for position, ((group, members), score) in enumerate(zip(units, scores, strict=True)):
        first = records[members[0]]
        languages = [part.strip() for part in str(first["lang"]).split(",") if part.strip()]
        item: dict[str, Any] = {
            "task_input": first["input"],
            "reference": first["gold"],
            "languages": languages,
        }
        if variant == "scoring":
            item.update(response=first["output"], llm=first["llm"])
            unit_id = f"{group}-{members[0]}"
        else:
            second = records[members[1]]
            item.update(
                first=first["output"],
                second=second["output"],
                llms=[first["llm"], second["llm"]],
            )
            unit_id = f"{group}-{members[0]}-{members[1]}"
        target: dict[str, Any] = {"human": score, "input_group": group}
        if variant == "comparison":
            target["pair"] = list(members)
        joined.append(
            {
                "unit": unit_id,
                "input": item,
                "target": target,
                "source_index": first["index"],
                "released": {name: values[position] for name, values in released.items()},
            }
        )
    return joined
