"""Deciding a label from stored option log-likelihoods (no model needed).

Three scores per option: ``raw`` (log P(option | prompt), lm-eval's ``acc``), ``norm`` (the
log-likelihood divided by the option's length in characters, lm-eval's ``acc_norm``) and,
when contextual calibration was measured, ``calibrated`` (the option's probability among the
options divided by its probability on a content-free input, Zhao et al. 2021). A label-set
task asks yes/no per label; a label applies when ``yes`` scores above ``no``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

SCORINGS = ("raw", "norm", "calibrated")


def option_values(
    options: Mapping[str, Mapping[str, Any]],
    by: str,
    prior: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Each option's score under ``by`` (``raw``, ``norm`` or ``calibrated``)."""
    if by == "norm":
        return {k: v["logprob"] / max(1, int(v["chars"])) for k, v in options.items()}
    raw = {k: float(v["logprob"]) for k, v in options.items()}
    if by == "raw" or not prior:
        return raw
    probabilities = softmax(raw)
    return {
        k: math.log(max(p, 1e-300)) - math.log(max(prior[k], 1e-300))
        for k, p in probabilities.items()
    }


def softmax(values: Mapping[str, float]) -> dict[str, float]:
    """The values as probabilities among themselves."""
    top = max(values.values())
    exps = {k: math.exp(v - top) for k, v in values.items()}
    total = sum(exps.values())
    return {k: e / total for k, e in exps.items()}


def best(values: Mapping[str, float], order: Sequence[str]) -> str:
    """The highest-scoring option; ties go to the earlier one in ``order``."""
    return max(order, key=lambda k: (values[k], -order.index(k)))


def decide_label(
    options: Mapping[str, Mapping[str, Any]],
    order: Sequence[str],
    by: str,
    prior: Mapping[str, float] | None = None,
) -> str:
    return best(option_values(options, by, prior), list(order))


def decide_label_set(
    per_label: Mapping[str, Mapping[str, Mapping[str, Any]]],
    order: Sequence[str],
    by: str,
    priors: Mapping[str, Mapping[str, float]] | None = None,
) -> list[str]:
    """The labels whose ``yes`` beats their ``no``, in the task's label order."""
    chosen = []
    for label in order:
        prior = (priors or {}).get(label)
        if decide_label(per_label[label], ("no", "yes"), by, prior) == "yes":
            chosen.append(label)
    return chosen


def chosen_probability(options: Mapping[str, Mapping[str, Any]], chosen: str) -> float:
    """The chosen option's probability among the options (for calibration error)."""
    return softmax({k: float(v["logprob"]) for k, v in options.items()})[chosen]


def expected_calibration_error(
    confidences: Sequence[float], correct: Sequence[bool], bins: int = 10
) -> tuple[float, list[dict[str, Any]]]:
    """ECE over equal-width confidence bins, and the reliability diagram's bins."""
    table = []
    total, error = len(confidences), 0.0
    for number in range(bins):
        low, high = number / bins, (number + 1) / bins
        members = [
            i
            for i, c in enumerate(confidences)
            if low <= c < high or (number == bins - 1 and c == 1.0)
        ]
        if not members:
            continue
        confidence = sum(confidences[i] for i in members) / len(members)
        accuracy = sum(bool(correct[i]) for i in members) / len(members)
        error += len(members) / total * abs(confidence - accuracy)
        table.append(
            {
                "bin": [low, high],
                "count": len(members),
                "confidence": confidence,
                "accuracy": accuracy,
            }
        )
    return (error if total else 0.0), table
