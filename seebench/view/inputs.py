"""Inputs a samples file does not hold, looked up by hash in the task's data.

A samples record keeps its item's ``input_hash`` (:attr:`seebench.data.dataset.Sample.input_hash`)
and, for most methods, not the input itself (baselines never do): the input is the task's data,
so the viewer reads the task's data again (as ``seebench score`` does) and maps every item's
input hash to its input. A hash the data does not hold (the data or its preparation changed
since the run) is shown as such, never as some other item's input.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from seebench.errors import SeebenchError

#: Task names whose inputs are kept in memory at once.
MAX_TASKS = 16

InputMap = dict[str, Any]
Loader = Callable[[str, int], InputMap]


#: What an input being read in the background shows until it is there.
PENDING = "the input is not stored; it is being read from the task's data: reload in a moment"


class InputLookup:
    """``input_hash -> input`` of each task, read once per task and seed (by ``loader``);
    :meth:`preload` reads them ahead, in a process of its own."""

    def __init__(self, loader: Loader | None = None) -> None:
        self._loader = loader or no_task_data
        self._found: dict[tuple[str, int], tuple[InputMap, str]] = {}
        self._pending: set[tuple[str, int]] = set()
        self._lock = threading.Lock()

    def pending(self, task: str, seed: int = 42) -> bool:
        """Whether the task's inputs are being read in the background."""
        with self._lock:
            return (task, seed) in self._pending and (task, seed) not in self._found

    def inputs(self, task: str, seed: int = 42) -> tuple[InputMap, str]:
        """The task's inputs by hash, and why there are none (empty when there are; a note
        while :meth:`preload` is still reading them)."""
        key = (task, seed)
        with self._lock:
            if key in self._found:
                return self._found[key]
            if key in self._pending:
                return {}, PENDING
        found = read_inputs(self._loader, task, seed)
        self._store(key, found)
        return found

    def _store(self, key: tuple[str, int], found: tuple[InputMap, str]) -> None:
        with self._lock:
            if len(self._found) >= MAX_TASKS:
                self._found.pop(next(iter(self._found)))
            self._found[key] = found
            self._pending.discard(key)

    def preload(self, keys: list[tuple[str, int]]) -> threading.Thread | None:
        """Read the inputs of ``keys`` (task, seed) in the background, in a process of its own
        (so that no page waits for the interpreter lock meanwhile); ``None`` if none is left."""
        with self._lock:
            keys = [k for k in dict.fromkeys(keys) if k not in self._found][:MAX_TASKS]
            self._pending.update(keys)
        if not keys:
            return None
        thread = threading.Thread(target=self._preload, args=(keys,), daemon=True)
        thread.start()
        return thread

    def _preload(self, keys: list[tuple[str, int]]) -> None:
        from seebench.view.child import call_in_process

        for key in keys:
            try:
                found = call_in_process(read_inputs, self._loader, *key)
            except Exception:  # no process here (or a loader that cannot cross): read it here
                found = read_inputs(self._loader, *key)
            self._store(key, found)

    def lookup(self, task: str, seed: int, input_hash: Any) -> tuple[Any, str]:
        """``(input, "")`` for a hash the task's data holds, else ``(None, why not)``."""
        table, problem = self.inputs(task, seed)
        if problem:
            return None, problem
        if isinstance(input_hash, str) and input_hash in table:
            return table[input_hash], ""
        return None, (
            f"the input is not stored and {task}'s data as it is now has no item with input "
            f"hash {str(input_hash)[:40]!r} (the data or its preparation changed)"
        )


def read_inputs(loader: Loader, task: str, seed: int) -> tuple[InputMap, str]:
    """``loader(task, seed)``, or no inputs and the one-line reason."""
    try:
        return loader(task, seed), ""
    except SeebenchError as exc:
        return {}, f"the input is not stored and {task}'s data cannot be read: {exc}"
    except Exception as exc:  # a plugin's data kind failing must not fail a page
        return {}, f"the input is not stored; reading {task}'s data failed: {exc}"


def inputs_of_task(spec: Any, registry: Any, seed: int) -> InputMap:
    """Every item of the task ``spec`` (all splits) by input hash, from the data installed
    here (the composition root binds the task index and registry: see ``seebench.view.cli``)."""
    from seebench.data.dataset import load_task_data

    data = load_task_data(spec, registry, seed=seed)
    return {s.input_hash: s.input for s in (*data.test, *data.validation, *data.train)}


def no_task_data(task: str, seed: int) -> InputMap:
    """The loader of a viewer given no task index: every lookup says so."""
    raise SeebenchError("the viewer was given no task index")


def search_hashes(table: InputMap, query: str) -> list[str]:
    """The hashes of the inputs whose text holds ``query`` (case-insensitive)."""
    from seebench.view.render import readable

    needle = query.lower()
    return [
        key
        for key, value in table.items()
        if needle in (value if isinstance(value, str) else readable(value)).lower()
    ]
