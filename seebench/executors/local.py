"""The ``local`` executor: units one after another in this process (the default), or on
``--workers N`` local processes with the logical resources of this machine respected (at most
one unit per GPU, ``--resource sandbox=N`` sandboxed units at once, default 1).

In this process, units that wait on a model server (``waits_on_server``: a served model and a
method that runs in threads) run side by side, each in a thread, as many as their ``cpu``
fits in ``--resource cpu`` (default 1, and a served model's unit asks for 0.25: four at
once). Their requests share the process's request loop, so the next unit's data and prompts
are prepared, and the last unit's answers scored, while the server works, and the server
keeps ``concurrency`` requests in flight across the units' ends. The driver decides which
units start (:meth:`LocalExecutor.fits`) as for any executor.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from collections import deque
from collections.abc import Hashable
from concurrent import futures
from typing import Any

from seebench import turns
from seebench.errors import SeebenchError
from seebench.executors.base import Executor, ExecutorOptions, lost_report
from seebench.executors.plan import Resources, Unit
from seebench.executors.worker import UnitReport, execute_unit
from seebench.runner.budget import abandon_thread


def local_gpus() -> int:
    """GPUs ``nvidia-smi -L`` lists (0 without it); no CUDA library is loaded to count them."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return 0
    try:
        listed = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return 0
    return sum(line.startswith("GPU ") for line in listed.stdout.splitlines())


def needs_gpu(resources: Resources, have: float) -> float:
    """GPUs a unit takes here: its demand, or one if it only wants one and there is one."""
    if resources.gpu:
        return resources.gpu
    return 1.0 if resources.gpu_if_available and have >= 1 else 0.0


def end_with_the_driver() -> None:
    """In a worker process: be sent SIGTERM when the process that started it dies (Linux's
    ``PR_SET_PDEATHSIG``), so a driver killed with SIGTERM or SIGKILL leaves no worker behind."""
    import contextlib
    import ctypes
    import signal

    # not Linux: the pool's own clean-up is all there is
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


class LocalExecutor(Executor):
    """Serial in the driver's process (``workers == 1``) or on a pool of local processes."""

    name = "local"

    def __init__(self, options: ExecutorOptions):
        self.options = options
        self.workers = max(1, int(options.workers))
        capacity = dict(options.capacity)
        self.capacity = {
            "cpu": float(capacity.pop("cpu", self.workers)),
            "gpu": float(capacity.pop("gpu", local_gpus())),
            "sandbox": float(capacity.pop("sandbox", 1)),
        }
        if capacity:
            raise SeebenchError(
                f"--resource {next(iter(capacity))}: the local executor knows cpu, gpu, sandbox"
            )
        self._queue: deque[tuple[int, Unit, list[dict[str, Any]]]] = deque()
        self._futures: dict[futures.Future, tuple[int, Unit]] = {}
        self._pool: futures.ProcessPoolExecutor | None = None
        self._threads: dict[futures.Future, tuple[int, Unit, threading.Thread]] = {}
        self._next = 0
        self._abandoned = False  # a worker runs a unit past its time limit

    def describe(self) -> str:
        where = "serial, in this process" if self.workers == 1 else f"{self.workers} processes"
        return f"local ({where})"

    def start(self, units: list[Unit]) -> None:
        for unit in units:
            if unit.resources.gpu > self.capacity["gpu"]:
                raise SeebenchError(
                    f"unit {unit.key} needs gpu={unit.resources.gpu:g} and this machine has "
                    f"{self.capacity['gpu']:g}; run it where there is a GPU (--executor ray) or "
                    "on the CPU (-o device=cpu)"
                )
        if self.workers > 1:
            self._pool = self._new_pool()

    def fits(self, unit: Unit, busy: list[Resources]) -> bool:
        if not busy:
            return True  # a unit that asks for more than there is still runs, alone
        if self.workers == 1:  # in this process: only units that wait on a server, together
            if not (unit.resources.waits_on_server and all(r.waits_on_server for r in busy)):
                return False
        elif len(busy) >= self.workers:
            return False
        have = self.capacity
        wanted = {
            "cpu": sum(r.cpu for r in busy) + unit.resources.cpu,
            "gpu": sum(needs_gpu(r, have["gpu"]) for r in busy)
            + needs_gpu(unit.resources, have["gpu"]),
            "sandbox": sum(r.sandbox for r in busy) + unit.resources.sandbox,
        }
        return all(wanted[k] <= have[k] + 1e-9 for k in wanted)

    def submit(self, unit: Unit, attempts: list[dict[str, Any]]) -> Hashable:
        self._next += 1
        if self._pool is None and unit.resources.waits_on_server:
            self._start_thread(self._next, unit, attempts)
            return self._next
        if self._pool is None:
            self._queue.append((self._next, unit, attempts))
            return self._next
        future = self._pool.submit(
            execute_unit, unit, attempts, self.options.env, self.options.include_paths
        )
        self._futures[future] = (self._next, unit)
        return self._next

    def _start_thread(self, handle: int, unit: Unit, attempts: list[dict[str, Any]]) -> None:
        """Run ``unit`` in a daemon thread of this process (a unit abandoned at Ctrl-C must
        not hold the process open)."""
        future: futures.Future = futures.Future()
        ticket = turns.take_ticket()  # units side by side prepare in the order they start

        def run() -> None:
            try:
                with turns.in_order(ticket):
                    report = execute_unit(
                        unit, attempts, registry=self.options.registry, index=self.options.index
                    )
            except BaseException as exc:  # noqa: BLE001 - abandoned (Ctrl-C): a lost attempt
                report = lost_report(unit, f"stopped: {type(exc).__name__}")
            future.set_result(report)

        thread = threading.Thread(target=run, name=f"seebench unit {unit.key}", daemon=True)
        self._threads[future] = (handle, unit, thread)
        thread.start()

    def wait(self, timeout: float) -> list[tuple[Hashable, UnitReport]]:
        if self._threads:
            done, _ = futures.wait(
                self._threads, timeout=timeout, return_when=futures.FIRST_COMPLETED
            )
            return [(self._threads.pop(f)[0], f.result()) for f in done]
        if self._pool is None:
            if not self._queue:
                return []
            handle, unit, attempts = self._queue.popleft()
            report = execute_unit(
                unit, attempts, registry=self.options.registry, index=self.options.index
            )
            return [(handle, report)]
        if not self._futures:
            return []
        done, _ = futures.wait(self._futures, timeout=timeout, return_when=futures.FIRST_COMPLETED)
        reports: list[tuple[Hashable, UnitReport]] = []
        broken = False
        for future in done:
            handle, unit = self._futures.pop(future)
            try:
                report = future.result()
                self._abandoned = self._abandoned or report.abandoned
                reports.append((handle, report))
            except futures.process.BrokenProcessPool as exc:
                broken = True
                reports.append((handle, lost_report(unit, f"worker process lost: {exc}")))
        if broken:  # every other unit of the dead pool is lost too; start a new pool
            for future, (handle, unit) in list(self._futures.items()):
                future.cancel()
                reports.append((handle, lost_report(unit, "worker process lost with its pool")))
            self._futures.clear()
            self._restart_pool()
        return reports

    def _new_pool(self) -> futures.ProcessPoolExecutor:
        import multiprocessing

        return futures.ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=end_with_the_driver,
        )

    def _restart_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._new_pool()

    def cancel(self) -> None:
        self._queue.clear()
        for _, _, thread in self._threads.values():
            abandon_thread(thread)  # its requests are cancelled as it stops
        self._threads.clear()
        self._end_pool()

    def _end_pool(self) -> None:
        """Stop the pool's processes now (the unit locks are released with them)."""
        if self._pool is not None:
            for future in self._futures:
                future.cancel()
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()  # the unit locks are released with the processes
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            self._futures.clear()

    def close(self) -> None:
        if self._abandoned:  # a unit past its time limit may wait on a server for ever
            self._end_pool()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def create_local(options: ExecutorOptions) -> LocalExecutor:
    """The ``local`` executor's factory."""
    return LocalExecutor(options)
