"""Building the task index: many task files are read in worker processes, with the same result."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from seebench.plugin_manager import get_registry
from seebench.tasks import index
from seebench.tasks.index import build_task_index
from tests.conftest import write_task

BASE = """
suite: pooled
version: 1
type: multiclass
labels: [{name: fix}, {name: feature}]
metrics: [f1_macro]
data:
  sources:
    - {url: 'https://example.org/c.csv', sha256: '%s', format: csv}
"""
SHA = "ab" * 32


@pytest.fixture
def tasks_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "tasks"
    directory.mkdir()
    (directory / "_base.yaml").write_text(BASE % SHA)
    for i in range(12):
        write_task(directory, f"task_{i:02d}", f"include: _base.yaml\nname: task_{i:02d}\n")
    labels = "labels: [{name: fix, value: .nan}, {name: feature}]"  # NaN: JSON cannot keep it
    write_task(directory, "nan_valued", f"include: _base.yaml\nname: nan_valued\n{labels}\n")
    write_task(directory, "broken", "include: _base.yaml\nname: broken\nmetrics: [nope]\n")
    write_task(directory, "twin", "include: _base.yaml\nname: task_00\n")
    return directory


def listing(built: index.TaskIndex) -> tuple:
    """What ``tasks list`` shows of an index, and each task's full document."""
    return (
        built.summaries,
        [(b.path, b.name, b.problems) for b in built.broken],
        built.origins,
        {name: repr(built.tasks[name].raw) for name in built.summaries},
    )


def test_worker_processes_give_the_index_one_process_gives(tasks_dir, monkeypatch) -> None:
    registry = get_registry()
    alone = build_task_index(registry, [tasks_dir], use_cache=False)
    assert index._workers(len(alone.summaries)) == 1  # a few files: read here
    monkeypatch.setattr(index, "_workers", lambda count: 2)
    pooled_reads: list[int] = []
    real = index._read_in_parallel

    def spy(files, registry, workers):
        read = real(files, registry, workers)
        pooled_reads.append(len(read))
        return read

    monkeypatch.setattr(index, "_read_in_parallel", spy)
    pooled = build_task_index(registry, [tasks_dir])
    assert pooled_reads == [len(alone.summaries) + len(alone.broken)]  # none fell back
    assert listing(pooled) == listing(alone)
    assert pooled.tasks["nan_valued"].labels[0].name == "fix"
    again = build_task_index(registry, [tasks_dir])  # from the cache the workers' records made
    assert listing(again) == listing(alone)


def test_without_worker_processes_the_files_are_read_here(tasks_dir, monkeypatch) -> None:
    registry = get_registry()
    alone = build_task_index(registry, [tasks_dir], use_cache=False)

    def no_processes(*args, **kwargs):
        raise OSError("no processes")

    monkeypatch.setattr(index, "_workers", lambda count: 2)
    monkeypatch.setattr(index, "_read_in_parallel", no_processes)
    assert listing(build_task_index(registry, [tasks_dir], use_cache=False)) == listing(alone)


def test_a_reading_process_that_dies_leaves_the_files_to_this_one(tasks_dir, monkeypatch) -> None:
    registry = get_registry()
    alone = build_task_index(registry, [tasks_dir], use_cache=False)

    def die(*args, **kwargs):
        os._exit(3)  # in the forked process: nothing sent back

    monkeypatch.setattr(index, "_workers", lambda count: 2)
    monkeypatch.setattr(index, "_send_share", die)
    assert listing(build_task_index(registry, [tasks_dir], use_cache=False)) == listing(alone)


def test_many_files_use_the_cpus_but_never_beside_other_threads(monkeypatch) -> None:
    import threading

    monkeypatch.setattr(index.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert index._workers(index.PARALLEL_MIN_FILES - 1) == 1
    assert index._workers(index.PARALLEL_MIN_FILES) == 2
    assert index._workers(100 * index.PARALLEL_MIN_FILES) == 4
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert index._workers(100 * index.PARALLEL_MIN_FILES) == 1
