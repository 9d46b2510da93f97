"""Figures of the study analysis (matplotlib, PNG, written without a display)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def delta_figure(comparison: pd.DataFrame, path: Path) -> Path | None:
    """Deltas vs the no-LLM condition with bootstrap intervals, one panel per outcome metric."""
    if comparison.empty:
        return None
    plt = _pyplot()
    metrics = list(dict.fromkeys(comparison["metric"]))
    columns = min(2, len(metrics))
    rows_n = math.ceil(len(metrics) / columns)
    height = 1.2 + 0.45 * comparison["condition"].nunique()
    fig, axes = plt.subplots(
        rows_n, columns, figsize=(5.5 * columns, height * rows_n + 0.4), squeeze=False
    )
    for ax in axes.flat[len(metrics) :]:
        ax.set_visible(False)
    for ax, metric in zip(axes.flat, metrics, strict=False):
        rows = comparison[comparison["metric"] == metric].reset_index(drop=True)
        low = (rows["delta"] - rows["ci_low"]).fillna(0)
        high = (rows["ci_high"] - rows["delta"]).fillna(0)
        colors = ["tab:orange" if k == "chat" else "tab:blue" for k in rows["kind"]]
        ax.barh(rows.index, rows["delta"].fillna(0), xerr=[low, high], color=colors, capsize=3)
        ax.set_yticks(
            rows.index,
            [
                f"{c}{' *' if s else ''}"
                for c, s in zip(rows["condition"], rows["significant"], strict=True)
            ],
        )
        ax.axvline(0, color="black", linewidth=0.8)
        better = "higher" if rows["higher_is_better"].iloc[0] else "lower"
        ax.set_title(f"Δ {metric} ({better} is better)", fontsize=9)
    fig.suptitle(
        "Difference from the no-LLM condition (95% bootstrap CI; * BH-significant)", fontsize=9
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def acceptance_figure(conditions: pd.DataFrame, path: Path) -> Path | None:
    """Pooled acceptance rate of requested vs automatic suggestions per autocomplete condition."""
    rows = conditions[conditions["kind"] == "autocomplete"].reset_index(drop=True)
    if rows.empty:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6, 1.4 + 0.6 * len(rows)))
    height = 0.38
    ax.barh(
        rows.index - height / 2,
        rows["pooled_acceptance_rate_auto"].fillna(0),
        height,
        label="automatic",
    )
    ax.barh(
        rows.index + height / 2,
        rows["pooled_acceptance_rate_requested"].fillna(0),
        height,
        label="requested",
    )
    ax.set_yticks(rows.index, rows["condition"])
    ax.set_xlabel("share of shown suggestions accepted")
    ax.set_xlim(0, 1)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def chat_histograms(per_task: list[int], lengths: list[int], path: Path) -> Path | None:
    """Histograms of messages per task and characters per user message."""
    if not per_task and not lengths:
        return None
    plt = _pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.2))
    if per_task:
        left.hist(per_task, bins=range(1, max(per_task) + 2), align="left", color="tab:orange")
    left.set_xlabel("messages per task")
    left.set_ylabel("tasks")
    if lengths:
        right.hist(lengths, bins=max(10, int(math.sqrt(len(lengths)))), color="tab:orange")
    right.set_xlabel("characters per user message")
    right.set_ylabel("messages")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
