"""Which leaderboards ``seebench compare`` draws from a set of scores, and what each leaves out.

A sweep (``seebench eval --model M --tasks all`` for several models) gives a score matrix with
holes: a baseline scores the classification tasks, a null model the code scenarios, and no
model scores every task. :func:`plan_boards` cuts such a matrix into leaderboards:

* one per suite (``group_by="suite"``), over the models that overlap there;
* when the scores span several suites, one overall board over the tasks the kept models share.

Each board is a complete matrix (no missing cell), chosen by the missing-score policy:
``overlap`` keeps the largest block of models x tasks with a score in every cell (at least
:data:`MIN_MODELS` models; blocks of at least :data:`MIN_TASKS` tasks win), ``drop-tasks`` and
``drop-models`` drop every incomplete task or model, ``error`` refuses holes. Tasks whose score
is better when lower are ranked on a board of their own (a board ranks in one direction;
with ``group_by="none"`` tasks in both directions are an error of the comparison).
Every model, task or suite left out is named with the reason, so that nothing disappears
silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from seebench.stats.matrix import IncompleteMatrixError, ScoreMatrix

#: what a leaderboard needs: the signed-rank test compares models over at least 3 tasks
MIN_MODELS = 2
MIN_TASKS = 3
POLICIES = ("overlap", "error", "drop-tasks", "drop-models")
OVERALL = ""


@dataclass(frozen=True)
class Board:
    """One leaderboard: its name (a suite; ``""`` for the overall board), its complete matrix,
    the matrix its breakdown reads (the board's tasks with holes) and what it left out."""

    name: str
    matrix: ScoreMatrix
    breakdown: ScoreMatrix
    left_out: tuple[str, ...] = ()


@dataclass
class Plan:
    """The boards to draw and the groups that could not make one (with the reason)."""

    boards: list[Board] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def plan_boards(
    matrix: ScoreMatrix,
    suites: Mapping[str, str],
    policy: str = "overlap",
    group_by: str = "suite",
) -> Plan:
    """The leaderboards of ``matrix`` (tasks already selected); ``suites`` maps a task to its
    suite. Raises :class:`IncompleteMatrixError` under policy ``error`` when a group has a hole."""
    if policy not in POLICIES:
        raise ValueError(f"unknown missing-score policy {policy!r}; known: {', '.join(POLICIES)}")
    groups: dict[str, list[str]] = {}
    for task in matrix.tasks:
        key = (suites.get(task) or "other") if group_by == "suite" else OVERALL
        groups.setdefault(key, []).append(task)
    several = len(groups) > 1
    plan = Plan()
    for name, tasks in groups.items():
        name = name if several else OVERALL  # one group: its board is the overall one
        group = matrix.select_tasks(tasks)
        parts = _by_direction(group, name) if group_by == "suite" else [(group, name)]
        for part, part_name in parts:
            _add(plan, part, part_name, policy)
    if several:
        everything = [t for t in matrix.tasks if t not in matrix.lower_is_better]
        lower = [t for t in matrix.tasks if t in matrix.lower_is_better]
        overall = matrix.select_tasks(everything or lower)
        dropped = lower if everything else []
        note = (
            [f"{len(dropped)} lower-is-better task(s) ranked on their suite's board only"]
            if dropped
            else []
        )
        _add(plan, overall, OVERALL, "overlap" if policy == "error" else policy, note)
    return plan


def _by_direction(matrix: ScoreMatrix, name: str) -> list[tuple[ScoreMatrix, str]]:
    lower = [t for t in matrix.tasks if t in matrix.lower_is_better]
    if not lower or len(lower) == len(matrix.tasks):
        return [(matrix, name)]
    higher = [t for t in matrix.tasks if t not in matrix.lower_is_better]
    label = f"{name}-lower-is-better" if name else "lower-is-better"
    return [(matrix.select_tasks(higher), name), (matrix.select_tasks(lower), label)]


def _add(
    plan: Plan, matrix: ScoreMatrix, name: str, policy: str, notes: Sequence[str] = ()
) -> None:
    scored = ~np.isnan(matrix.scores)
    present = [m for m, has in zip(matrix.models, scored.any(axis=0), strict=True) if has]
    matrix = _keep_models(matrix, present)
    if policy == "overlap":
        complete = largest_block(matrix)
    else:
        try:
            complete = matrix.complete(policy)
        except IncompleteMatrixError as exc:
            where = f"suite {name}: " if name else ""
            raise IncompleteMatrixError(f"{where}{exc}; or --missing overlap") from None
    label = f"suite {name}" if name else "overall"
    if len(complete.models) < MIN_MODELS or len(complete.tasks) < MIN_TASKS:
        plan.skipped.append(
            f"{label}: no board: {len(complete.models)} model(s) share {len(complete.tasks)} "
            f"task(s) ({len(matrix.models)} model(s), {len(matrix.tasks)} task(s) in all); a "
            f"board needs at least {MIN_MODELS} models with a score on each of at least "
            f"{MIN_TASKS} tasks"
        )
        return
    left = [*notes, *_left_out(matrix, complete)]
    plan.boards.append(Board(name, complete, _keep_models(matrix, complete.models), tuple(left)))


def largest_block(matrix: ScoreMatrix) -> ScoreMatrix:
    """The largest complete block of ``matrix``: models dropped one at a time (the one whose
    removal completes the most tasks), keeping the set with the most cells among those with
    at least :data:`MIN_TASKS` tasks (the most cells when none has that many)."""
    scored = ~np.isnan(matrix.scores)
    current = list(range(len(matrix.models)))
    best: tuple[tuple[bool, int, int], list[int], list[int]] | None = None
    while len(current) >= MIN_MODELS:
        tasks = [t for t in range(len(matrix.tasks)) if scored[t, current].all()]
        key = (len(tasks) >= MIN_TASKS, len(tasks) * len(current), len(tasks))
        if best is None or key > best[0]:
            best = (key, list(current), tasks)
        current.remove(max(current, key=lambda m: _gain_without(scored, current, m)))
    if best is None:
        return matrix.complete("drop-tasks")
    _, models, tasks = best
    kept = _keep_models(matrix, [matrix.models[m] for m in models])
    return kept.select_tasks([matrix.tasks[t] for t in tasks])


def _gain_without(scored: np.ndarray, current: list[int], model: int) -> tuple[int, int]:
    rest = [m for m in current if m != model]
    complete = int(scored[:, rest].all(axis=1).sum())
    return complete, -int(scored[:, model].sum())  # ties: drop the model with fewer scores


def _keep_models(matrix: ScoreMatrix, models: tuple[str, ...] | list[str]) -> ScoreMatrix:
    from dataclasses import replace

    keep = [matrix.models.index(m) for m in models]
    return replace(matrix, models=tuple(models), scores=matrix.scores[:, keep])


def _left_out(full: ScoreMatrix, kept: ScoreMatrix) -> list[str]:
    scored = ~np.isnan(full.scores)
    lines = []
    for index, model in enumerate(full.models):
        if model not in kept.models:
            count = int(scored[:, index].sum())
            lines.append(
                f"model {model}: scores {count} of the {len(full.tasks)} tasks, too few in "
                "common with the others"
            )
    cols = [full.models.index(m) for m in kept.models]
    for index, task in enumerate(full.tasks):
        if task not in kept.tasks:
            lacking = [kept.models[i] for i, c in enumerate(cols) if not scored[index, c]]
            lines.append(f"task {task}: no score of {', '.join(lacking[:3])}" + _more(lacking))
    return lines


def _more(items: list[str]) -> str:
    return f" and {len(items) - 3} more" if len(items) > 3 else ""
