"""Survey answers by condition: the mean, standard deviation and count of every scale item
(helpfulness, the NASA-TLX items and their raw-TLX mean) and the answers to choice items.

A participant's last answer to an item counts. The raw TLX of a participant is the mean of
their ``tlx_*`` items, when they answered all of the items present in the study.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from seebench_study.analysis.events import EventLog

TLX_PREFIX = "tlx_"


def survey_answers(log: EventLog) -> pd.DataFrame:
    """One row per (session, survey, item): condition, kind and the last answer."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for session in log.sessions.values():
        for event in session.events:
            data = event["data"]
            if event["type"] != "survey_answer" or not isinstance(data.get("item"), str):
                continue
            rows[(session.id, str(data.get("survey")), data["item"])] = {
                "session": session.id,
                "condition": session.condition,
                "kind": session.kind,
                "survey": data.get("survey"),
                "item": data["item"],
                "answer": data.get("answer"),
            }
    columns = ["session", "condition", "kind", "survey", "item", "answer"]
    return pd.DataFrame(list(rows.values()), columns=columns)


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return math.nan
    return float(value)


def scale_table(answers: pd.DataFrame) -> pd.DataFrame:
    """Per scale item (numeric answers) and condition: n, mean and sd; plus ``raw_tlx``."""
    if answers.empty:
        return pd.DataFrame(columns=["item", "condition", "n", "mean", "sd"])
    numeric = answers.assign(value=answers["answer"].map(_number)).dropna(subset=["value"])
    tlx_items = sorted(i for i in numeric["item"].unique() if str(i).startswith(TLX_PREFIX))
    if tlx_items:
        wide = numeric[numeric["item"].isin(tlx_items)].pivot_table(
            index=["session", "condition"], columns="item", values="value", aggfunc="last"
        )
        complete = wide.dropna()
        if not complete.empty:
            raw = complete.mean(axis=1).reset_index(name="value").assign(item="raw_tlx")
            numeric = pd.concat([numeric, raw], ignore_index=True)
    out = []
    for (item, condition), group in numeric.groupby(["item", "condition"], sort=True):
        values = group["value"]
        out.append(
            {
                "item": item,
                "condition": condition,
                "n": len(values),
                "mean": values.mean(),
                "sd": values.std(ddof=1) if len(values) > 1 else math.nan,
            }
        )
    return pd.DataFrame(out, columns=["item", "condition", "n", "mean", "sd"])


def choice_table(answers: pd.DataFrame) -> pd.DataFrame:
    """Per answer of a pre-survey (background) item and condition: how many gave it."""
    if answers.empty:
        return pd.DataFrame(columns=["item", "answer", "condition", "n"])
    pre = answers[answers["survey"] == "pre"]
    if pre.empty:
        return pd.DataFrame(columns=["item", "answer", "condition", "n"])
    text = pre[pre["answer"].map(lambda v: isinstance(v, str)).astype(bool)]
    text = text[text["answer"].map(len) <= 60]  # choices, not free text
    if text.empty:
        return pd.DataFrame(columns=["item", "answer", "condition", "n"])
    return text.groupby(["item", "answer", "condition"]).size().reset_index(name="n")
