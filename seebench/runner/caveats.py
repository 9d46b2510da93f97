"""Caveats of a unit's headline number, said where the number is shown.

A result can be right and still mislead: a ``--limit`` sample whose golds are all one class
makes a class-averaged score (``f1_macro``) say little; a data file whose checksum the user
recorded (``seebench data add``) is trusted on first use, not pinned by the task. Each caveat
is one line, logged with the unit and kept in the result's ``warnings`` list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from seebench.tasks.types import LABEL


def unit_caveats(task: Any, test: Sequence[Any], limit: int | None) -> list[str]:
    """The caveats of a unit over ``test`` (its scored samples) for ``task``."""
    caveats = single_class_caveat(task, [sample.target for sample in test], limit)
    from seebench.data.sources import task_sources
    from seebench.data.user_files import user_file_caveats

    return [*caveats, *user_file_caveats(task, task_sources(task))]


def single_class_caveat(task: Any, golds: Sequence[Any], limit: int | None) -> list[str]:
    """One line when every gold of a single-label task is the same class."""
    if getattr(task.behaviour, "target_kind", None) != LABEL or len(golds) < 1:
        return []
    try:
        classes = {str(gold) for gold in golds}
    except TypeError:
        return []
    if len(classes) != 1:
        return []
    why = f" (--limit {limit})" if limit else ""
    return [
        f"all {len(golds)} test samples{why} have gold {next(iter(classes))!r}: class-averaged "
        "metrics such as f1_macro average over one class and mean little here; use more samples"
    ]
