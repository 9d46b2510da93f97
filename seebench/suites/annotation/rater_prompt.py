"""Asking a model to rate an item like the human raters did: shots, messages, answer parsing.

As in the paper, the few-shot examples are one item per answer on the scale, each shown with
the answer most of its human raters gave, drawn (seeded) from the data and then left out of
the analysis. The model's confidence is the probability it gave its answer, summed over the
first-token spellings of that answer (``"4"``, ``" 4"``).
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from seebench.suites.annotation.ratings import HUMAN, RatingData, RatingItem
from seebench.suites.annotation.scale import Scale


@dataclass(frozen=True)
class Shot:
    """A worked example: an item and the answer the majority of its human raters gave."""

    item: RatingItem
    value: int | float | str


def majority_value(data: RatingData, item_id: str) -> tuple[Any, float] | None:
    """The value more than half of the item's human raters gave, with its share; else None."""
    given = [data.ratings[r][item_id] for r in data.raters_of(HUMAN) if item_id in data.ratings[r]]
    if not given:
        return None
    value, count = Counter(given).most_common(1)[0]
    return (value, count / len(given)) if count * 2 > len(given) else None


def pick_shots(data: RatingData, *, seed: int) -> tuple[list[Shot], RatingData, list[str]]:
    """One shot per scale value (unanimous items first) in a seeded random order, the data
    without the shot items, and the scale values no item could illustrate."""
    rng = random.Random(seed)
    candidates: dict[Any, list[tuple[float, str]]] = {v: [] for v in data.scale.values}
    for item_id in data.item_ids:
        majority = majority_value(data, item_id)
        if majority is not None:
            candidates[majority[0]].append((majority[1], item_id))
    by_id = {item.id: item for item in data.items}
    shots, missing = [], []
    for value in data.scale.values:
        pool = candidates[value]
        if not pool:
            missing.append(str(value))
            continue
        best = max(share for share, _ in pool)
        chosen = rng.choice(sorted(i for share, i in pool if share == best))
        shots.append(Shot(by_id[chosen], value))
    rng.shuffle(shots)  # shown in scale order, small models continue the sequence
    used = {shot.item.id for shot in shots}
    return shots, data.subset(i for i in data.item_ids if i not in used), missing


def item_text(item: RatingItem) -> str:
    """The fields a rater saw, one ``name: value`` line each."""
    return "\n".join(f"{name.replace('_', ' ')}: {value}" for name, value in item.fields.items())


def scale_text(scale: Scale) -> str:
    """The answers, one ``value: label`` line each, lowest first."""
    return "\n".join(f"{point.value}: {point.label}" for point in scale.points)


def build_messages(
    prompt: Mapping[str, str],
    scale: Scale,
    item: RatingItem,
    shots: Sequence[Shot] = (),
    cue: str = "",
) -> list[dict[str, str]]:
    """Chat messages: guidelines and scale as the system message, each shot as a user/assistant
    exchange, then the item to rate; ``cue`` (e.g. ``Answer:``) ends every item's message."""
    system = "\n\n".join(
        part
        for part in (
            prompt.get("context", ""),
            prompt.get("task", ""),
            "Answers:\n" + scale_text(scale),
            prompt.get("answer_format", ""),
        )
        if part
    )
    messages = [{"role": "system", "content": system}]
    entity = prompt.get("entity", "item").capitalize()
    end = f"\n{cue}" if cue else ""
    for shot in shots:
        messages.append({"role": "user", "content": f"{entity}:\n{item_text(shot.item)}{end}"})
        messages.append({"role": "assistant", "content": str(shot.value)})
    messages.append({"role": "user", "content": f"{entity}:\n{item_text(item)}{end}"})
    return messages


def parse_rating(text: str, scale: Scale) -> int | float | str | None:
    """The first answer on the scale found in ``text`` (a value such as ``4`` or ``close``, or a
    label); None when there is none."""
    if not text:
        return None
    values = sorted((str(v) for v in scale.values), key=len, reverse=True)
    pattern = "|".join(re.escape(v) for v in values)
    match = re.search(rf"(?<![\w.])({pattern})(?!\w|\.\d)", text, flags=re.IGNORECASE)
    if match:
        return scale.parse(
            next(v for v in scale.values if str(v).casefold() == match.group(1).casefold())
        )
    lowered = text.casefold()
    for point in sorted(scale.points, key=lambda p: len(p.label), reverse=True):
        if point.label.casefold() in lowered:
            return point.value
    return None


def answer_probability(top_logprobs: Mapping[str, float], value: Any, scale: Scale) -> float | None:
    """Probability of ``value`` at the first answer token: the summed probabilities of the
    candidate tokens that parse to it (``top_logprobs``: token -> natural-log probability)."""
    total = 0.0
    found = False
    for token, logprob in top_logprobs.items():
        if parse_rating(token.strip(), scale) == value and token.strip():
            total += math.exp(logprob)
            found = True
    return min(total, 1.0) if found else None
