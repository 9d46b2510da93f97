"""Few-shot examples: seeded, stratified by class for classification, from the train pool."""

from __future__ import annotations

from seebench.data.dataset import load_task_data
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.validate import load_task
from tests.conftest import make_binary_task


def _data(tmp_path, seed=42, rows=60):
    path = make_binary_task(tmp_path, "shots_task", rows=rows)
    registry = build_registry(create_plugin_manager(entry_points=False))
    return load_task_data(load_task(path, registry), registry, seed=seed)


def test_three_shots_show_both_classes_and_come_from_train(tmp_path):
    data = _data(tmp_path)
    train = {s.id: s for s in data.train}
    assert set(data.shots) == {s.id for s in data.test}
    for ids in data.shots.values():
        assert len(ids) == 3 and len(set(ids)) == 3
        assert all(i in train for i in ids)
        assert {train[i].target for i in ids} == {"bug", "other"}


def test_shots_are_seeded(tmp_path):
    assert _data(tmp_path, seed=1).shots == _data(tmp_path, seed=1).shots
    assert _data(tmp_path, seed=1).shots != _data(tmp_path, seed=2).shots


def test_shots_are_drawn_on_first_read_only(tmp_path, monkeypatch):
    from seebench.data import dataset

    drawn = []
    original = dataset._pick_for
    monkeypatch.setattr(
        dataset, "_pick_for", lambda *a, **k: drawn.append(a[2]) or original(*a, **k)
    )
    data = _data(tmp_path)
    assert drawn == []  # a method that never reads the shots never pays for them
    shots = data.shots
    assert len(drawn) == 1 and set(shots) == {s.id for s in data.test}
    assert data.shots is shots and len(drawn) == 1


def test_prepared_splits_and_shots_are_reused_by_content(tmp_path, monkeypatch):
    from seebench.data import dataset

    splits, drawn = [], []
    split_samples, pick_for = dataset.split_samples, dataset._pick_for
    monkeypatch.setattr(dataset, "split_samples", lambda *a: splits.append(1) or split_samples(*a))
    monkeypatch.setattr(dataset, "_pick_for", lambda *a: drawn.append(a[2]) or pick_for(*a))
    first = _data(tmp_path)
    first_shots = first.shots
    again = _data(tmp_path)
    assert (again.train, again.validation, again.test) == (
        first.train,
        first.validation,
        first.test,
    )
    assert again.shots == first_shots and len(splits) == 1 and len(drawn) == 1
    again.train.clear()  # each load gets its own lists
    assert _data(tmp_path).train == first.train
    _data(tmp_path, seed=7)  # another seed: split afresh
    assert len(splits) == 2
    changed = _data(tmp_path, rows=61)  # other content
    assert len(splits) == 3 and changed.shots != first_shots


def test_a_limited_load_shows_the_same_shots_as_the_full_one(tmp_path):
    from seebench.data.dataset import load_task_data, pick_shots

    path = make_binary_task(tmp_path, "limited_task", rows=60)
    registry = build_registry(create_plugin_manager(entry_points=False))
    task = load_task(path, registry)
    limited = load_task_data(task, registry, seed=3, limit=4)
    full = load_task_data(task, registry, seed=3)
    assert len(limited.test) == 4
    assert limited.shots == {s.id: full.shots[s.id] for s in limited.test}
    assert full.shots == pick_shots(task, full, 3, 3)


def test_task_data_still_takes_its_shots_and_exclusions_in_the_constructor(tmp_path):
    from dataclasses import replace

    from seebench.data.dataset import TaskData

    data = _data(tmp_path)
    given = TaskData(
        data.task, data.train, data.validation, data.test, {}, {"x": ["y"]}, {"z": "r"}
    )
    assert given.shots == {"x": ["y"]} and given.excluded == {"z": "r"}
    assert TaskData(data.task, [], [], [], {}).shots == {}  # k 0: none drawn
    copy = replace(data, test=data.test[:2])
    assert copy.shots == {s.id: data.shots[s.id] for s in data.test[:2]}
