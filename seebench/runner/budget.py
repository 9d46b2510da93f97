"""Budgets of one evaluation run: total tokens, total cost, and a time limit per unit.

The sweep driver (the one evaluation loop, whatever the executor) keeps the run's
:class:`Budget`: :meth:`Budget.charge` adds what a unit spent as soon as it finishes (its
result's ``info.usage`` and ``info.cost_usd``; units read from the results directory cost
nothing) and :meth:`Budget.room_for` says whether one more unit may start. The run then stops
cleanly: every finished unit is kept, the units not started are named, and a rerun with a
larger budget continues with the rest, since finished units are skipped. A unit in progress is
never cut for tokens or cost, so the last unit may overshoot them. Units running at once
(``--workers``, Ray) are started only while what was spent plus what the running ones are
expected to spend (the mean of the units charged so far) stays under the budget, and the first
unit runs alone to measure it, so a budget stops at the same units on every executor when the
units cost alike.

:func:`within_time_limit` enforces the per-unit time limit: a unit's compute phase runs in a
thread of its own and the unit fails (:class:`UnitTimeLimit`, retried by a rerun) once it has
run longer, even while the thread waits on a model server that never answers; the run goes on
with the next unit.
"""

from __future__ import annotations

import ctypes
import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from seebench.errors import SeebenchError

T = TypeVar("T")

#: threads of units abandoned at their time limit (the process should not wait for them)
_ABANDONED: list[threading.Thread] = []


class UnitTimeLimit(SeebenchError):
    """A unit ran longer than the run's per-unit time limit."""


class UnitAbandoned(BaseException):
    """Raised inside the thread of a unit that ran past its time limit, so that it stops at
    its next Python instruction (a ``BaseException``: a method's ``except Exception`` does
    not swallow it)."""


class BudgetExhausted(Exception):
    """A run stopped because a budget ran out: ``outcomes`` are the units that finished,
    ``remaining`` the keys (``model/method/task``) of the units not started, ``reason`` which
    limit was reached, ``commands`` the commands that run only the remaining units."""

    def __init__(
        self,
        reason: str,
        outcomes: list[Any],
        remaining: list[str],
        commands: list[str] | None = None,
    ):
        super().__init__(reason)
        self.reason = reason
        self.outcomes = outcomes
        self.remaining = remaining
        self.commands = list(commands or [])


@dataclass
class Budget:
    """Limits of one run (``None``: no limit) and what the run has spent so far."""

    max_tokens_total: int | None = None
    max_cost: float | None = None  # USD
    unit_time_limit: float | None = None  # seconds per unit
    tokens: int = 0
    cost: float = 0.0
    units_without_price: list[str] = field(default_factory=list)
    charged: int = 0  # units charged (finished here, not read from the results directory)

    @property
    def active(self) -> bool:
        """Whether any limit is set."""
        return any(
            v is not None for v in (self.max_tokens_total, self.max_cost, self.unit_time_limit)
        )

    def charge(self, result_path: Path | None, status: str) -> None:
        """Add what the unit whose result is at ``result_path`` spent (nothing if cached)."""
        if status == "cached" or result_path is None:
            return
        from seebench import safe_files

        try:
            result = json.loads(safe_files.read_text(result_path))
        except (OSError, ValueError):
            return
        if not isinstance(result, dict):
            return
        self.charged += 1
        info: dict[str, Any] = result["info"] if isinstance(result.get("info"), dict) else {}
        infos: list[Any] = info["repeats"] if isinstance(info.get("repeats"), list) else [info]
        priced = False
        for item in infos:
            if not isinstance(item, dict):
                continue
            usage: dict[str, Any] = item["usage"] if isinstance(item.get("usage"), dict) else {}
            self.tokens += int(usage.get("prompt_tokens", 0) or 0)
            self.tokens += int(usage.get("completion_tokens", 0) or 0)
            cost = item.get("cost_usd")
            if isinstance(cost, int | float):
                self.cost += float(cost)
                priced = True
        if (
            self.max_cost is not None
            and not priced
            and any(isinstance(i, dict) and i.get("usage") for i in infos)
        ):
            task_info = result.get("task")
            task = str(
                task_info.get("name", result_path) if isinstance(task_info, dict) else result_path
            )
            if not self.units_without_price:
                logging.getLogger("seebench").warning(
                    "--max-cost: unit %r used tokens but has no price (-o price_input=... "
                    "-o price_output=..., USD per million tokens); such units count as 0 USD",
                    task,
                )
            self.units_without_price.append(task)

    def exhausted(self) -> str | None:
        """Which limit is reached, in words (``None`` while the run may go on)."""
        if self.max_tokens_total is not None and self.tokens >= self.max_tokens_total:
            return (
                f"token budget reached: {self.tokens} tokens used of "
                f"--max-tokens-total {self.max_tokens_total}"
            )
        if self.max_cost is not None and self.cost >= self.max_cost:
            return f"cost budget reached: {self.cost:.4f} USD spent of --max-cost {self.max_cost}"
        return None

    def spent(self) -> dict[str, Any]:
        """What the run spent, for messages and trackers."""
        return {"tokens": self.tokens, "cost_usd": round(self.cost, 6)}

    def limits_spending(self) -> bool:
        """Whether a token or cost limit is set (the per-unit time limit is not spending)."""
        return self.max_tokens_total is not None or self.max_cost is not None

    def room_for(self, running: int) -> bool:
        """Whether one more unit may start beside ``running`` ones: no limit is reached, and
        what was spent plus what the running units are expected to spend (the mean of the
        units charged so far) stays under each limit. Before any unit was charged, one unit
        runs at a time."""
        if self.exhausted():
            return False
        if not self.limits_spending() or running == 0:
            return True
        if not self.charged:
            return False
        tokens = self.tokens + running * self.tokens / self.charged
        cost = self.cost + running * self.cost / self.charged
        return (self.max_tokens_total is None or tokens < self.max_tokens_total) and (
            self.max_cost is None or cost < self.max_cost
        )

    def without_spending(self) -> Budget | None:
        """The part of this budget a worker applies itself: the per-unit time limit."""
        if self.unit_time_limit is None:
            return None
        return Budget(unit_time_limit=self.unit_time_limit)


def within_time_limit(compute: Callable[[], T], limit: float | None, what: str) -> T:
    """``compute()``, or :class:`UnitTimeLimit` once it has run ``limit`` seconds.

    With a limit, ``compute`` runs in a daemon thread that the caller waits for at most
    ``limit`` seconds; a thread still running then is abandoned (its result is never used)
    and asked to stop with :class:`UnitAbandoned` at its next Python instruction. A thread
    blocked in a system call (a socket read) stops when that call returns.
    """
    if limit is None:
        return compute()
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = compute()
        except UnitAbandoned:
            pass
        except BaseException as exc:  # handed to the caller's thread below
            box["error"] = exc

    thread = threading.Thread(target=target, name=f"seebench unit {what}", daemon=True)
    thread.start()
    try:
        thread.join(limit)
    except BaseException:  # Ctrl-C while waiting: stop the unit's thread too
        abandon_thread(thread)
        raise
    if thread.is_alive():
        abandon_thread(thread)
        raise UnitTimeLimit(f"unit time limit of {limit:g} s reached while {what}")
    if "error" in box:
        raise box["error"]
    return box["value"]


def abandon_thread(thread: threading.Thread) -> None:
    """Ask ``thread`` (a unit's) to stop by raising :class:`UnitAbandoned` in it."""
    if thread.ident is not None and thread.is_alive():
        _ABANDONED.append(thread)
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(thread.ident), ctypes.py_object(UnitAbandoned)
        )


def abandoned_units() -> int:
    """How many units abandoned at their time limit still run in this process (a process
    that ends should not wait for them: they may wait on a server that never answers)."""
    _ABANDONED[:] = [t for t in _ABANDONED if t.is_alive()]
    return len(_ABANDONED)


def stop_message(stop: BudgetExhausted, output: Path) -> list[str]:
    """What a budget stop kept, what remains and how to go on."""
    kept = [o for o in stop.outcomes if o.status in ("ok", "cached", "not_applicable")]
    remaining = ", ".join(stop.remaining[:5]) + (" ..." if len(stop.remaining) > 5 else "")
    lines = [
        f"stopped: {stop.reason}; {len(kept)} finished unit(s) are kept in {output}; "
        f"{len(stop.remaining)} unit(s) not started ({remaining}); to continue, run the same "
        f"command again with a larger budget (finished units are skipped)"
    ]
    if stop.commands:
        lines.append("or run only the units not started with:")
        lines.extend(f"  {command}" for command in stop.commands)
    from seebench.secrets import scrub

    return scrub(lines)  # a command repeats the options given, a key's value among them
