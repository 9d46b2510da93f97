"""Budgets of one evaluation run: total tokens, total cost, and a time limit per unit.

The runner consults a :class:`Budget` between units: :meth:`Budget.charge` adds what a
finished unit spent (its result's ``info.usage`` and ``info.cost_usd``; units read from the
results directory cost nothing) and :meth:`Budget.exhausted` says, before the next unit
starts, whether a limit is reached. The run then stops cleanly
(:class:`BudgetExhausted`): every finished unit is kept, and a rerun with a larger budget
continues with the rest, since finished units are skipped. A unit in progress is never cut
for tokens or cost, so the last unit may overshoot them.

:meth:`Budget.unit_timer` enforces the per-unit time limit: a unit that runs longer is stopped
(:class:`UnitTimeLimit`, recorded as ``failed`` with that reason and retried by a rerun) and the
run goes on with the next unit. It uses ``SIGALRM``, so it only works in the main thread.
"""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench.errors import SeebenchError


class UnitTimeLimit(SeebenchError):
    """A unit ran longer than the run's per-unit time limit."""


class BudgetExhausted(Exception):
    """A run stopped because a budget ran out: ``outcomes`` are the units handled before,
    ``remaining`` the task names not started, ``reason`` which limit was reached."""

    def __init__(self, reason: str, outcomes: list[Any], remaining: list[str]):
        super().__init__(reason)
        self.reason = reason
        self.outcomes = outcomes
        self.remaining = remaining


@dataclass
class Budget:
    """Limits of one run (``None``: no limit) and what the run has spent so far."""

    max_tokens_total: int | None = None
    max_cost: float | None = None  # USD
    unit_time_limit: float | None = None  # seconds per unit
    tokens: int = 0
    cost: float = 0.0
    units_without_price: list[str] = field(default_factory=list)

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
        info = result.get("info") if isinstance(result.get("info"), dict) else {}
        infos = info.get("repeats") if isinstance(info.get("repeats"), list) else [info]
        priced = False
        for item in infos:
            if not isinstance(item, dict):
                continue
            usage = item.get("usage") if isinstance(item.get("usage"), dict) else {}
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

    @contextlib.contextmanager
    def unit_timer(self, task: str) -> Iterator[None]:
        """Raise :class:`UnitTimeLimit` inside the block once it has run ``unit_time_limit``
        seconds (no limit outside the main thread)."""
        limit = self.unit_time_limit
        if limit is None or threading.current_thread() is not threading.main_thread():
            yield
            return

        def expire(signum: int, frame: Any) -> None:
            raise UnitTimeLimit(f"unit time limit of {limit:g} s reached while running {task!r}")

        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def stop_message(stop: BudgetExhausted, output: Path) -> str:
    """What a budget stop kept, what remains and how to go on, in one line."""
    kept = [o for o in stop.outcomes if o.status in ("ok", "cached", "not_applicable")]
    remaining = ", ".join(stop.remaining[:5]) + (" ..." if len(stop.remaining) > 5 else "")
    return (
        f"stopped: {stop.reason}; {len(kept)} finished unit(s) are kept in {output}; "
        f"{len(stop.remaining)} unit(s) not started ({remaining}); to continue, run the same "
        f"command again with a larger budget (finished units are skipped)"
    )
