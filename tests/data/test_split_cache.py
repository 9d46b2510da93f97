"""Hold-out splits kept on disk: reused by a fresh process, never trusted unchecked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from seebench.data import dataset, split_cache
from seebench.data.dataset import load_task_data
from seebench.home import seebench_home
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.validate import load_task
from tests.conftest import make_binary_task


def _load(path: Path, seed: int = 42):
    registry = build_registry(create_plugin_manager(entry_points=False))
    return load_task_data(load_task(path, registry), registry, seed=seed)


def _splits(data) -> tuple[list[str], list[str], list[str]]:
    return tuple([s.id for s in part] for part in (data.train, data.validation, data.test))


def _stored() -> list[Path]:
    return sorted((seebench_home() / "cache" / "splits").glob("*.json"))


@pytest.fixture
def counted(monkeypatch):
    """Counts the hold-outs computed (not read back)."""
    calls = []
    original = dataset.split_samples
    monkeypatch.setattr(dataset, "split_samples", lambda *a: calls.append(1) or original(*a))
    return calls


def test_a_fresh_process_reads_the_split_back_instead_of_splitting(tmp_path, counted):
    path = make_binary_task(tmp_path, "cached_split", rows=80)
    first = _splits(_load(path))
    assert len(counted) == 1 and len(_stored()) == 1
    dataset._PREPARED.clear()  # what a new process starts with
    assert _splits(_load(path)) == first and len(counted) == 1
    dataset._PREPARED.clear()
    _load(path, seed=7)  # another seed: another assignment
    assert len(counted) == 2 and len(_stored()) == 2


@pytest.mark.parametrize(
    "damage",
    [
        lambda record: "not json {",
        lambda record: {**record, "version": 99},
        lambda record: {**record, "key": "0" * 64},
        lambda record: {**record, "splits": {**record["splits"], "test": []}},  # ids missing
        lambda record: {
            **record,
            "splits": {**record["splits"], "test": record["splits"]["test"] + ["ghost"]},
        },
        lambda record: {
            **record,
            "splits": {**record["splits"], "train": record["splits"]["train"] * 2},
        },
        lambda record: {**record, "splits": {"train": [], "test": 3, "validation": []}},
        lambda record: [record],
    ],
)
def test_a_damaged_file_is_ignored_and_the_split_computed_again(tmp_path, counted, damage):
    path = make_binary_task(tmp_path, "damaged_split", rows=60)
    first = _splits(_load(path))
    (stored,) = _stored()
    record = json.loads(stored.read_text())
    damaged = damage(record)
    stored.write_text(damaged if isinstance(damaged, str) else json.dumps(damaged))
    dataset._PREPARED.clear()
    assert _splits(_load(path)) == first and len(counted) == 2
    assert json.loads(stored.read_text()) == record  # rewritten


def test_published_and_predefined_splits_are_not_stored(tmp_path):
    path = make_binary_task(tmp_path, "no_hold_out", rows=40)
    path.write_text(path.read_text() + "split: {method: none}\n")
    _load(path)
    assert _stored() == []


def test_an_unwritable_home_only_costs_the_split(tmp_path, monkeypatch, counted):
    path = make_binary_task(tmp_path, "read_only_split", rows=40)
    (seebench_home() / "cache").mkdir(parents=True, exist_ok=True)
    (seebench_home() / "cache" / "splits").write_text("a file, not a folder")
    assert len(_load(path).test) > 0 and len(counted) == 1


def test_a_new_process_does_not_import_scikit_learn_for_a_stored_split(tmp_path):
    path = make_binary_task(tmp_path, "no_sklearn", rows=80)
    expected = _splits(_load(path))
    script = (
        "import json, sys\nfrom pathlib import Path\n"
        "from seebench.data.dataset import load_task_data\n"
        "from seebench.plugin_manager import build_registry, create_plugin_manager\n"
        "from seebench.tasks.validate import load_task\n"
        "registry = build_registry(create_plugin_manager(entry_points=False))\n"
        f"data = load_task_data(load_task(Path({str(path)!r}), registry), registry, seed=42)\n"
        "print(json.dumps([[s.id for s in p] for p in (data.train, data.validation, data.test)]))\n"
        "print('sklearn' in sys.modules)\n"
    )
    env = {**os.environ, "SEEBENCH_HOME": str(seebench_home())}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert tuple(json.loads(out[0])) == expected
    assert out[1] == "False"


def test_the_key_follows_every_input(tmp_path):
    registry = build_registry(create_plugin_manager(entry_points=False))
    task = load_task(make_binary_task(tmp_path, "keyed", rows=30), registry)
    data = load_task_data(task, registry, seed=1)
    samples = data.train + data.validation + data.test
    key = split_cache.assignment_key(task, samples, 1)
    assert key == split_cache.assignment_key(task, list(samples), 1)
    assert key != split_cache.assignment_key(task, samples, 2)
    assert key != split_cache.assignment_key(task, samples[::-1], 1)
    assert key != split_cache.assignment_key(task, samples[1:], 1)
