"""``merge_results``: copies verified results, refuses broken ones and conflicting ones."""

from __future__ import annotations

import json
import shutil

import pytest

from seebench import EvalConfig, run_eval
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.results.merge import merge_results
from seebench.tasks.index import build_task_index
from tests.conftest import make_binary_task
from tests.plugins import tmp_tasks_plugin


@pytest.fixture
def shards(tmp_path, monkeypatch):
    for name in ("alpha", "beta"):
        make_binary_task(tmp_path / "tasks", name, rows=20)
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tmp_path / "tasks"))
    registry = build_registry(
        create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
    )
    for i in (1, 2):
        config = EvalConfig(
            model="majority", tasks="tmp", output=tmp_path / f"s{i}", shard=(i, 2), progress=False
        )
        run_eval(config, registry, build_task_index(registry))
    return tmp_path


def test_merge_copies_every_shard_and_is_idempotent(shards):
    report = merge_results([shards / "s1", shards / "s2"], shards / "out")
    assert (report.copied, report.problems) == (2, [])
    for task in ("alpha", "beta"):
        assert (shards / "out" / "majority" / "baseline" / f"{task}.samples.jsonl").is_file()
    again = merge_results([shards / "s1", shards / "s2"], shards / "out")
    assert (again.copied, again.kept) == (0, 2)


def test_two_different_results_for_one_unit_are_refused(shards):
    shutil.copytree(shards / "s1", shards / "s1b")
    path = shards / "s1b" / "majority" / "baseline" / "alpha.json"
    result = json.loads(path.read_text())
    result["metrics"]["accuracy"] = 0.123
    path.write_text(json.dumps(result))
    report = merge_results([shards / "s1", shards / "s1b", shards / "s2"], shards / "out")
    assert len(report.problems) == 1
    assert report.problems[0].startswith("CONFLICT  majority/baseline/alpha.json: ")
    assert "metrics" in report.problems[0]
    assert not (shards / "out").exists()


def test_a_broken_result_is_refused(shards):
    (shards / "s2" / "majority" / "baseline" / "beta.samples.jsonl").write_text("damaged\n")
    report = merge_results([shards / "s1", shards / "s2"], shards / "out")
    assert len(report.problems) == 1 and report.problems[0].startswith("BROKEN    ")
    assert "beta.json" in report.problems[0]
    assert not (shards / "out").exists()
