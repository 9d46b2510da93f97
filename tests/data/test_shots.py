"""Few-shot examples: seeded, stratified by class for classification, from the train pool."""

from __future__ import annotations

from seebench.data.dataset import load_task_data
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.validate import load_task
from tests.conftest import make_binary_task


def _data(tmp_path, seed=42):
    path = make_binary_task(tmp_path, "shots_task", rows=60)
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
