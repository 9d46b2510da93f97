"""The executor interface: where and how the units of a sweep run.

The driver (:mod:`seebench.executors.driver`) owns the plan, the retries, the checks and the
records; an executor only starts units and hands back what each did. Executors are plugins:
``register_executors(register)`` with ``register(name, factory, *, description)``, where
``factory(options: ExecutorOptions) -> Executor``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from seebench.executors.plan import Resources, Unit
from seebench.executors.worker import UnitReport


@dataclass
class ExecutorOptions:
    """What ``seebench eval`` tells an executor.

    ``workers``: processes of the local executor (1: serial, in the driver's process).
    ``address``: a Ray cluster to join (``None``: ``RAY_ADDRESS`` or a local Ray).
    ``capacity``: logical resources this machine offers when the executor starts its own
    (``--resource sandbox=2``, ``gpu=1``, ``cpu=4``). ``env`` and ``include_paths`` are handed
    to workers so they load the same plugins and tasks; ``registry`` and ``index`` are the
    driver's own (used in-process only).
    """

    workers: int = 1
    address: str | None = None
    capacity: dict[str, float] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    include_paths: tuple[str, ...] = ()
    registry: Any = None
    index: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


class Executor(ABC):
    """Runs units somewhere. The driver calls :meth:`start` once (before any unit runs),
    then :meth:`fits`/:meth:`submit` and :meth:`wait` in a loop, and :meth:`close` at the end
    (:meth:`cancel` first on Ctrl-C)."""

    name: str = "?"

    @abstractmethod
    def start(self, units: list[Unit]) -> None:
        """Connect and check that every unit can run here (a one-line
        :class:`~seebench.errors.SeebenchError` otherwise, e.g. a GPU unit and no GPU)."""

    def fits(self, unit: Unit, busy: list[Resources]) -> bool:
        """Whether ``unit`` may start now next to the running units' ``busy`` resources
        (executors whose scheduler places units themselves say yes)."""
        return True

    @abstractmethod
    def submit(self, unit: Unit, attempts: list[dict[str, Any]]) -> Hashable:
        """Start (or queue) one attempt of ``unit``; returns a handle for :meth:`wait`."""

    @abstractmethod
    def wait(self, timeout: float) -> list[tuple[Hashable, UnitReport]]:
        """Reports of attempts that ended, waiting at most ``timeout`` seconds for one. A
        lost worker is a report with status ``failed`` and ``transient`` set."""

    def cancel(self) -> None:  # noqa: B027 - optional
        """Stop every unit that is running or queued (Ctrl-C)."""

    def close(self) -> None:  # noqa: B027 - optional
        """Release processes, connections and clusters the executor started."""

    def describe(self) -> str:
        """One line for the log: where units run."""
        return self.name


def lost_report(unit: Unit, reason: str, node: str = "") -> UnitReport:
    """A report for an attempt whose worker went away (always transient)."""
    import time

    now = time.time()
    return UnitReport(
        key=unit.key,
        status="failed",
        reason=reason,
        transient=True,
        node=node,
        started_at=now,
        ended_at=now,
    )
