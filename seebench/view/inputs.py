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


class InputLookup:
    """``input_hash -> input`` of each task, read once per task and seed (by ``loader``)."""

    def __init__(self, loader: Loader | None = None) -> None:
        self._loader = loader or task_inputs
        self._found: dict[tuple[str, int], tuple[InputMap, str]] = {}
        self._lock = threading.Lock()

    def inputs(self, task: str, seed: int = 42) -> tuple[InputMap, str]:
        """The task's inputs by hash, and why there are none (empty when there are)."""
        key = (task, seed)
        with self._lock:
            if key not in self._found:
                try:
                    found: tuple[InputMap, str] = (self._loader(task, seed), "")
                except SeebenchError as exc:
                    found = ({}, f"the input is not stored and {task}'s data cannot be read: {exc}")
                except Exception as exc:  # a plugin's data kind failing must not fail a page
                    found = ({}, f"the input is not stored; reading {task}'s data failed: {exc}")
                if len(self._found) >= MAX_TASKS:
                    self._found.pop(next(iter(self._found)))
                self._found[key] = found
            return self._found[key]

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


def task_inputs(task: str, seed: int) -> InputMap:
    """Every item of ``task`` (all splits) by input hash, from the data installed here."""
    from seebench.data.dataset import load_task_data
    from seebench.plugin_manager import get_registry, get_task_index

    spec = get_task_index().get(task)
    data = load_task_data(spec, get_registry(), seed=seed)
    return {s.input_hash: s.input for s in (*data.test, *data.validation, *data.train)}


def search_hashes(table: InputMap, query: str) -> list[str]:
    """The hashes of the inputs whose text holds ``query`` (case-insensitive)."""
    from seebench.view.render import readable

    needle = query.lower()
    return [
        key
        for key, value in table.items()
        if needle in (value if isinstance(value, str) else readable(value)).lower()
    ]
