"""The public entry point: a pool of warm sandbox workers, or an object that says why not."""

from __future__ import annotations

import itertools
import os
import queue
import shutil
import threading
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from seebench.sandbox.bwrap import host_mounts
from seebench.sandbox.cgroups import cgroups_writable, pid_alive, sweep_stale_cgroups
from seebench.sandbox.mechanism import NONE, Mechanism, SandboxUnavailable, detect
from seebench.sandbox.types import SandboxRequest, SandboxResult
from seebench.sandbox.verdicts import classify
from seebench.sandbox.worker import Worker, WorkerStartError, scratch_root

_swept = False
_sweep_lock = threading.Lock()
#: numbers the pools of this process: worker names (and their cgroups and scratch folders)
#: start with the pid, so stale ones can be swept, and must differ between pools
_pool_numbers = itertools.count()


def sweep_stale() -> list[str]:
    """Remove cgroups and scratch dirs left by sandbox runners that died; return them."""
    removed = sweep_stale_cgroups()
    root = scratch_root()
    if root.is_dir():
        for entry in root.iterdir():
            owner = entry.name.split("-", 1)[0]
            if owner.isdigit() and not pid_alive(int(owner)):
                shutil.rmtree(entry, ignore_errors=True)
                removed.append(str(entry))
    return removed


class Sandbox:
    """A pool of ``workers`` warm sandboxes; ``run`` is thread-safe.

    Use as a context manager (or call :meth:`close`) so the workers are stopped.
    """

    available = True
    reason = ""

    def __init__(
        self, mechanism: Mechanism, *, workers: int = 1, extra_mounts: tuple[str, ...] = ()
    ) -> None:
        global _swept
        if workers < 1:
            raise ValueError(f"sandbox workers must be at least 1, got {workers}")
        with _sweep_lock:
            if not _swept:
                sweep_stale()
                _swept = True
        self.mechanism = mechanism
        self.workers = workers
        mounts = host_mounts(extra_mounts)
        self._starter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-start")
        self._idle: queue.Queue[Worker] = queue.Queue()
        pool = next(_pool_numbers)
        for index in range(workers):
            name = f"{os.getpid()}-{pool}-{index}"
            self._idle.put(Worker(mechanism, name, mounts, disk_mb=64, starter=self._starter))
        self._closed = False

    def run(self, request: SandboxRequest) -> SandboxResult:
        """Run one request in a free worker (waits for one) and return its verdict."""
        if self._closed:
            raise RuntimeError("this sandbox is closed")
        worker = self._idle.get()
        try:
            try:
                raw = worker.run(request)
            except WorkerStartError as error:
                return SandboxResult(
                    "sandbox_unavailable", reason=str(error), mechanism=self.mechanism.name
                )
            return classify(raw, request, self.mechanism.name)
        finally:
            self._idle.put(worker)

    def run_many(self, requests: Iterable[SandboxRequest]) -> list[SandboxResult]:
        """Run requests on all workers at once; results are in the order of ``requests``."""
        with ThreadPoolExecutor(max_workers=self.workers) as executor:
            return list(executor.map(self.run, requests))

    def warm_up(self) -> None:
        """Start every worker now rather than on its first run."""
        with ThreadPoolExecutor(max_workers=self.workers) as executor:
            list(executor.map(lambda _: self.run(_NOOP), range(self.workers)))

    def describe(self) -> dict[str, Any]:
        """The mechanism, bwrap version and host facts, for result files."""
        return {**self.mechanism.as_dict(), "workers": self.workers, "cgroups": cgroups_writable()}

    def close(self) -> None:
        """Stop every worker (waiting up to a minute for runs in progress)."""
        if self._closed:
            return
        self._closed = True
        for _ in range(self.workers):
            try:
                self._idle.get(timeout=60).stop()
            except queue.Empty:
                break
        self._starter.shutdown(wait=True)

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


_NOOP = SandboxRequest(command=["true"])


class UnavailableSandbox:
    """Stands in for a sandbox that cannot start: every run gets ``sandbox_unavailable``.

    A sample with that verdict is unscored with ``reason``; it is neither a pass nor a fail.
    """

    available = False
    workers = 0

    def __init__(self, reason: str) -> None:
        self.reason = reason
        self.mechanism = None

    def run(self, request: SandboxRequest) -> SandboxResult:
        return SandboxResult("sandbox_unavailable", reason=self.reason)

    def run_many(self, requests: Iterable[SandboxRequest]) -> list[SandboxResult]:
        return [self.run(request) for request in requests]

    def warm_up(self) -> None:
        pass

    def describe(self) -> dict[str, Any]:
        return {"mechanism": None, "unavailable": self.reason}

    def close(self) -> None:
        pass

    def __enter__(self) -> UnavailableSandbox:
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass


def open_sandbox(
    *,
    workers: int = 1,
    unsafe_host_exec: bool = False,
    bwrap: str | None = None,
    extra_mounts: tuple[str, ...] = (),
) -> Sandbox | UnavailableSandbox:
    """A sandbox, failing closed: an :class:`UnavailableSandbox` (with the one-line reason)
    where none can start. ``unsafe_host_exec`` runs on the host with rlimits only and marks
    every result ``mechanism: "none"``. ``extra_mounts`` are host paths bound read-only."""
    if unsafe_host_exec:
        mechanism = Mechanism(NONE, note="--unsafe-host-exec: rlimits only, no isolation")
    else:
        try:
            mechanism = detect(bwrap)
        except SandboxUnavailable as error:
            return UnavailableSandbox(str(error))
    return Sandbox(mechanism, workers=workers, extra_mounts=extra_mounts)
