"""Running one call in a process of its own, so that its CPU time does not hold the
interpreter lock the server's pages wait for (the leaderboard's posterior draws and figures,
reading a task's data). The process is a daemon: stopping the server stops it."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any


def call_in_process(function: Callable[..., Any], *args: Any) -> Any:
    """``function(*args)`` in a new (spawned) process; its exception or death raises
    :class:`ChildProcessError`. ``function`` and ``args`` must be picklable."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(send, function, args), daemon=True)
    process.start()
    send.close()
    try:
        while not receive.poll(0.5):
            if not process.is_alive():
                raise ChildProcessError(f"the process exited with status {process.exitcode}")
        ok, value = receive.recv()
    finally:
        receive.close()
        process.join(5)
    if not ok:
        raise ChildProcessError(value)
    return value


def _child(send: Any, function: Callable[..., Any], args: tuple) -> None:
    try:
        result = (True, function(*args))
    except BaseException as exc:  # reported to the parent, never lost  # noqa: BLE001
        result = (False, f"{type(exc).__name__}: {exc}")
    send.send(result)
    send.close()
