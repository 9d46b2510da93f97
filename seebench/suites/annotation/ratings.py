"""One rating task's data: items, the ratings each rater gave, the scale and the level.

Every source layout is read into this one structure (see :mod:`.readers`). Model raters and
the random control rater are added as more raters with another ``kind``; the analysis treats
all raters alike and only the zone summaries (human-human, human-model, model-model) look at
the kinds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from seebench.data.dataset import DataError
from seebench.suites.annotation.scale import Scale

HUMAN = "human"
MODEL = "model"
RANDOM = "random"


@dataclass(frozen=True)
class RatingItem:
    """A unit of analysis: a stable id and the fields a rater was shown."""

    id: str
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RawRating:
    """A rating as read, before it is checked against the scale; ``where`` locates it."""

    item_id: str
    rater: str
    value: Any
    where: str


@dataclass(frozen=True)
class RatingData:
    """Items, ratings by rater id (an item may lack a rater), scale and level of measurement."""

    items: tuple[RatingItem, ...]
    ratings: Mapping[str, Mapping[str, int | float | str]]
    scale: Scale
    level: str
    kinds: Mapping[str, str] = field(default_factory=dict)
    problems: tuple[str, ...] = ()

    @property
    def raters(self) -> list[str]:
        return list(self.ratings)

    @property
    def item_ids(self) -> list[str]:
        return [item.id for item in self.items]

    def kind(self, rater: str) -> str:
        return self.kinds.get(rater, HUMAN)

    def raters_of(self, kind: str) -> list[str]:
        return [r for r in self.ratings if self.kind(r) == kind]

    def ratings_per_item(self, kind: str = HUMAN) -> dict[str, int]:
        """How many raters of ``kind`` rated each item."""
        counts = dict.fromkeys(self.item_ids, 0)
        for rater in self.raters_of(kind):
            for item_id in self.ratings[rater]:
                counts[item_id] += 1
        return counts

    def with_rater(
        self, rater: str, ratings: Mapping[str, Any], *, kind: str = MODEL
    ) -> RatingData:
        """A copy with one more rater; values are checked against the scale."""
        if rater in self.ratings:
            raise DataError(f"rater {rater!r} is already present")
        known = set(self.item_ids)
        checked = {}
        for item_id, raw in ratings.items():
            if item_id not in known:
                raise DataError(f"rater {rater!r}: unknown item {item_id!r}")
            try:
                value = self.scale.parse(raw)
            except ValueError as exc:
                raise DataError(f"rater {rater!r}, item {item_id!r}: {exc}") from None
            if value is not None:
                checked[item_id] = value
        return replace(
            self,
            ratings={**self.ratings, rater: checked},
            kinds={**self.kinds, rater: kind},
        )

    def subset(self, item_ids: Iterable[str]) -> RatingData:
        """A copy restricted to ``item_ids`` (kept in the given order)."""
        wanted = list(dict.fromkeys(item_ids))
        by_id = {item.id: item for item in self.items}
        missing = [i for i in wanted if i not in by_id]
        if missing:
            raise DataError(f"unknown item ids: {', '.join(missing[:5])}")
        keep = set(wanted)
        return replace(
            self,
            items=tuple(by_id[i] for i in wanted),
            ratings={
                r: {i: v for i, v in rs.items() if i in keep} for r, rs in self.ratings.items()
            },
        )

    def summary(self) -> dict[str, Any]:
        """Counts for status displays: items, raters, ratings per item, ratings per rater."""
        per_item = self.ratings_per_item(HUMAN)
        counts = sorted(per_item.values())
        return {
            "items": len(self.items),
            "raters": len(self.raters_of(HUMAN)),
            "ratings": sum(counts),
            "ratings_per_item": {"min": counts[0], "max": counts[-1]} if counts else {},
            "ratings_per_rater": {r: len(self.ratings[r]) for r in self.raters_of(HUMAN)},
            "level": self.level,
            "scale": list(self.scale.values),
            "problems": list(self.problems),
        }


def assemble(
    items: Iterable[RatingItem], raw: Iterable[RawRating], scale: Scale, level: str
) -> RatingData:
    """Check raw ratings against the scale and build :class:`RatingData`.

    An empty cell is a missing rating. Two ratings of one item by one rater are kept once when
    they agree; when they differ the rating is dropped (that rater did not rate that item) and a
    line naming both places goes to ``problems``, so one contradictory row does not stop a task.
    """
    try:
        scale.check_level(level)
    except ValueError as exc:
        raise DataError(str(exc)) from None
    item_list = list(items)
    ids = [item.id for item in item_list]
    if len(set(ids)) != len(ids):
        dupes = [i for n, i in enumerate(ids) if i in ids[:n]]  # every repeat, in order
        raise DataError(f"duplicate item ids: {', '.join(map(str, dupes[:5]))}")
    known = set(ids)
    ratings: dict[str, dict[str, Any]] = {}
    origin: dict[tuple[str, str], str] = {}
    conflicts: dict[tuple[str, str], str] = {}
    for entry in raw:
        if entry.item_id not in known:
            raise DataError(f"{entry.where}: unknown item {entry.item_id!r}")
        try:
            value = scale.parse(entry.value)
        except ValueError as exc:
            raise DataError(f"{entry.where}: {exc}") from None
        if value is None:
            continue
        given = ratings.setdefault(entry.rater, {})
        key = (entry.rater, entry.item_id)
        if key in origin and given.get(entry.item_id) != value and key not in conflicts:
            conflicts[key] = (
                f"{entry.where}: rater {entry.rater!r} rated item {entry.item_id!r} {value!r} "
                f"here and {given[entry.item_id]!r} at {origin[key]}; rating dropped"
            )
        given.setdefault(entry.item_id, value)
        origin.setdefault(key, entry.where)
    for rater, item_id in conflicts:
        del ratings[rater][item_id]
    if not ratings:
        raise DataError("no ratings found")
    return RatingData(tuple(item_list), ratings, scale, level, problems=tuple(conflicts.values()))


def sample_items(data: RatingData, size: int, *, seed: int, min_ratings: int = 2) -> RatingData:
    """A seeded random sample of ``size`` items among those with ``min_ratings`` human ratings."""
    eligible = sorted(i for i, n in data.ratings_per_item(HUMAN).items() if n >= min_ratings)
    if size >= len(eligible):
        return data.subset(eligible)
    chosen = set(random.Random(seed).sample(eligible, size))
    return data.subset(i for i in data.item_ids if i in chosen)


def random_rater(data: RatingData, *, seed: int, name: str = "random") -> RatingData:
    """Add the paper's control rater: a seeded uniform draw from the scale for every item."""
    rng = random.Random(seed)
    values = data.scale.values
    return data.with_rater(name, {i: rng.choice(values) for i in data.item_ids}, kind=RANDOM)
