"""Threads of one process read and prepare task data one at a time (served units side by
side: the first unit's requests start while the next prepares)."""

from __future__ import annotations

import threading
import time

from seebench import turns
from seebench.data import dataset
from seebench.data.dataset import load_task_data
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.validate import load_task
from tests.conftest import make_binary_task


def test_loads_in_threads_take_turns(tmp_path, monkeypatch):
    registry = build_registry(create_plugin_manager(entry_points=False))
    tasks = [
        load_task(make_binary_task(tmp_path, f"turns_{n}", rows=30), registry) for n in range(3)
    ]
    inside, most = [0], [0]
    guard = threading.Lock()
    read_rows = dataset.read_rows

    def slow_read(task, registry):
        with guard:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        time.sleep(0.05)
        with guard:
            inside[0] -= 1
        return read_rows(task, registry)

    monkeypatch.setattr(dataset, "read_rows", slow_read)
    loaded = []
    threads = [
        threading.Thread(target=lambda t=t: loaded.append(load_task_data(t, registry)))
        for t in tasks
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(loaded) == 3 and most[0] == 1


def test_a_stuck_load_delays_the_others_only_so_long(tmp_path, monkeypatch):
    registry = build_registry(create_plugin_manager(entry_points=False))
    task = load_task(make_binary_task(tmp_path, "turns_stuck", rows=30), registry)
    stuck = turns._Turn()
    holder = threading.Thread(target=stuck.acquire, args=(1.0,))  # never lets go
    holder.start()
    holder.join()
    monkeypatch.setattr(turns, "_TURN", stuck)
    monkeypatch.setattr(dataset, "LOADING_WAIT_S", 0.1)
    assert len(load_task_data(task, registry).test) > 0


def test_the_prepared_key_covers_every_row_hashed_a_few_at_a_time(tmp_path, monkeypatch):
    registry = build_registry(create_plugin_manager(entry_points=False))
    task = load_task(make_binary_task(tmp_path, "turns_key", rows=30), registry)
    monkeypatch.setattr(dataset, "ROWS_PER_HASH", 4)
    rows = [{"text": f"row {n}", "label": n % 2} for n in range(10)]
    key = dataset._content_key(task, rows, registry, 42)
    assert key == dataset._content_key(task, [dict(r) for r in rows], registry, 42)
    late = [*rows[:9], {"text": "row 9", "label": 0}]  # the last row, in the last chunk
    moved = [*rows[:4], *rows[5:], rows[4]]  # same rows, another order
    fewer = rows[:8]
    keys = {dataset._content_key(task, other, registry, 42) for other in (late, moved, fewer)}
    assert key not in keys and len(keys) == 3
    assert dataset._content_key(task, rows, registry, 43) != key
