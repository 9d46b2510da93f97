"""How many participants a study needs: a power analysis from the released RealHumanEval log.

The released chat log (``chat_data.csv``) is the only per-participant record of the paper
that is public: one row per chat message with the participant, the task and seconds since the
session started. From it, per participant:

* ``seconds_per_task``: the mean time from the first message on one task to the first message
  on the next task of that participant (a lower bound of time on task: a participant who does
  not chat at once starts earlier than the first message);
* ``tasks_reached``: how many tasks the participant sent a message on.

The spread of each across participants (their standard deviation) is the noise a comparison of
two conditions must see through. :func:`participants_needed` turns an effect (a difference of
condition means, in the metric's unit) into Cohen's d and solves for the participants per
condition with :class:`statsmodels.stats.power.TTestIndPower` (a two-sided two-sample t-test,
equal groups), at a significance level divided among the comparisons (Bonferroni: the analysis
corrects its tests too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import mean, stdev

from seebench.errors import SeebenchError
from seebench_study.analysis.released import ChatMessage

METRICS = {
    "seconds_per_task": "seconds from the first chat message on a task to that on the next",
    "tasks_reached": "tasks a participant sent a chat message on",
}


@dataclass(frozen=True)
class Spread:
    """One metric's spread across the released participants."""

    metric: str
    participants: int
    mean: float
    sd: float


def per_participant(messages: list[ChatMessage], metric: str) -> list[float]:
    """``metric`` for each participant of the released log who has a value for it."""
    if metric not in METRICS:
        raise SeebenchError(f"--metric {metric!r}: choose one of {', '.join(METRICS)}")
    firsts: dict[int, dict[str, float]] = {}
    for message in messages:
        tasks = firsts.setdefault(message.participant, {})
        tasks[message.task] = min(tasks.get(message.task, math.inf), message.timestamp)
    values = []
    for tasks in firsts.values():
        if metric == "tasks_reached":
            values.append(float(len(tasks)))
            continue
        starts = sorted(tasks.values())
        gaps = [b - a for a, b in zip(starts, starts[1:], strict=False) if b > a]
        if gaps:
            values.append(mean(gaps))
    return values


def spread(messages: list[ChatMessage], metric: str) -> Spread:
    """The mean and standard deviation of ``metric`` across participants."""
    values = per_participant(messages, metric)
    if len(values) < 3:
        raise SeebenchError(f"the released log has {len(values)} participant(s) with {metric}")
    return Spread(metric, len(values), mean(values), stdev(values))


def participants_needed(
    effect: float, sd: float, *, alpha: float = 0.05, power: float = 0.8, comparisons: int = 1
) -> int:
    """Participants per condition to detect a difference of ``effect`` (two-sided)."""
    from statsmodels.stats.power import TTestIndPower

    if effect == 0 or sd <= 0:
        raise SeebenchError("--effect must not be 0, and the spread must be positive")
    size = abs(effect) / sd
    n = TTestIndPower().solve_power(
        effect_size=size, alpha=alpha / comparisons, power=power, ratio=1.0
    )
    return math.ceil(n)


def power_lines(
    found: Spread,
    effects: list[float],
    *,
    alpha: float,
    power: float,
    conditions: int,
) -> list[str]:
    """The report: the spread found, then participants needed for each effect."""
    comparisons = max(1, conditions - 1)
    lines = [
        f"{found.metric} ({METRICS[found.metric]}): {found.participants} released "
        f"participants, mean {found.mean:.1f}, SD {found.sd:.1f}",
        f"design: {conditions} conditions, {comparisons} comparison(s) with the control, "
        f"alpha {alpha:g} (Bonferroni: {alpha / comparisons:.4g} each), power {power:g}",
        "| effect | Cohen's d | per condition | total |",
        "|---|---|---|---|",
    ]
    for effect in effects:
        n = participants_needed(effect, found.sd, alpha=alpha, power=power, comparisons=comparisons)
        lines.append(f"| {effect:g} | {abs(effect) / found.sd:.2f} | {n} | {n * conditions} |")
    return lines
