"""Rating scales and levels of measurement.

A scale is an ordered list of points, each with the value found in the data and a label shown to
raters. The level of measurement (``nominal``, ``ordinal``, ``interval``, ``ratio``) is always
declared by the task, never guessed: Krippendorff's alpha changes a lot with it (on the code
summarization data nominal alpha is 2-6 times lower than interval alpha).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

LEVELS: tuple[str, ...] = ("nominal", "ordinal", "interval", "ratio")
#: the levels as a type (what ``krippendorff.alpha`` accepts; ``check_level`` checks a str)
Level = Literal["nominal", "ordinal", "interval", "ratio"]


def check_level(level: Any, *, where: str = "level") -> str:
    """Return ``level`` if it is a known level of measurement, else raise ValueError."""
    if level not in LEVELS:
        raise ValueError(
            f"{where}: level of measurement {level!r} is not one of {', '.join(LEVELS)}"
        )
    return level


def admissible_levels(level: str) -> tuple[str, ...]:
    """The declared level and every weaker one (interval data may be read as ordinal or nominal)."""
    check_level(level)
    return LEVELS[: LEVELS.index(level) + 1]


@dataclass(frozen=True)
class ScalePoint:
    """One answer a rater can give: the value stored in the data and its label."""

    value: int | float | str
    label: str


@dataclass(frozen=True)
class Scale:
    """Ordered answer options; the order is the one of the points (lowest first)."""

    points: tuple[ScalePoint, ...]

    @classmethod
    def from_config(cls, config: Any, *, where: str = "scale") -> Scale:
        """Build a scale from a list of ``{value, label}`` mappings (or ``[value, label]`` pairs)."""
        if not isinstance(config, list | tuple) or len(config) < 2:
            raise ValueError(f"{where}: expected a list of at least two {{value, label}} points")
        points = []
        for index, entry in enumerate(config):
            if isinstance(entry, dict) and set(entry) == {"value", "label"}:
                value, label = entry["value"], entry["label"]
            elif isinstance(entry, list | tuple) and len(entry) == 2:
                value, label = entry
            else:
                raise ValueError(f"{where}[{index}]: expected {{value, label}}, got {entry!r}")
            if isinstance(value, bool) or not isinstance(value, int | float | str):
                raise ValueError(f"{where}[{index}].value: {value!r} is not a number or a string")
            points.append(ScalePoint(value, str(label)))
        values = [p.value for p in points]
        if len(set(values)) != len(values):
            raise ValueError(f"{where}: duplicate values in {values}")
        return cls(tuple(points))

    def to_config(self) -> list[dict[str, Any]]:
        """The inverse of :meth:`from_config`."""
        return [{"value": p.value, "label": p.label} for p in self.points]

    @property
    def values(self) -> tuple[int | float | str, ...]:
        return tuple(p.value for p in self.points)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(p.label for p in self.points)

    @property
    def is_numeric(self) -> bool:
        return all(isinstance(v, int | float) for v in self.values)

    def numeric(self, value: int | float | str) -> float:
        """The number alpha computes with: the value itself on a numeric scale, else its rank."""
        if self.is_numeric:
            return float(value)
        return float(self.values.index(value))

    def domain(self) -> list[float]:
        """All points as numbers, in scale order (alpha's ``value_domain``)."""
        return [self.numeric(v) for v in self.values]

    def check_level(self, level: str) -> None:
        """Reject levels the scale cannot carry (interval or ratio on text values)."""
        check_level(level)
        if level in ("interval", "ratio") and not self.is_numeric:
            raise ValueError(f"level {level!r} needs numeric scale values, got {list(self.values)}")
        if level == "ratio" and min(self.domain()) < 0:
            raise ValueError("level 'ratio' needs non-negative scale values")

    def parse(self, raw: Any) -> int | float | str | None:
        """Map a raw cell (4, 4.0, "4", a label, empty) to a scale value; None when empty.

        Raises ValueError when the cell holds something that is not on the scale.
        """
        if raw is None or (isinstance(raw, float) and math.isnan(raw)):
            return None
        if isinstance(raw, str):
            text = raw.strip()
            if not text:
                return None
            for point in self.points:
                if text == str(point.value) or text.casefold() == point.label.casefold():
                    return point.value
            try:
                raw = float(text)
            except ValueError:
                raise ValueError(f"{raw!r} is not on the scale {list(self.values)}") from None
        if isinstance(raw, bool):
            raw = int(raw)
        for point in self.points:
            if isinstance(point.value, int | float) and raw == point.value:
                return point.value
        raise ValueError(f"{raw!r} is not on the scale {list(self.values)}")
