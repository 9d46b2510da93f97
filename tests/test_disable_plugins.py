"""SEEBENCH_DISABLE_PLUGINS: built-in plugins (a whole suite) are disabled like third-party ones."""

from __future__ import annotations

import json
import logging

import pytest

from seebench.cli.main import main
from seebench.plugin_manager import build_registry, create_plugin_manager, plugin_infos
from seebench.tasks.index import build_task_index
from tests.cli.test_cli import run_cli
from tests.leaderboard.builders import SELU_CSV


def run(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.mark.parametrize("name", ["selu", "seebench.builtin.selu", " SELU "])
def test_disabling_the_selu_plugin_removes_the_whole_suite(monkeypatch, name):
    monkeypatch.setenv("SEEBENCH_DISABLE_PLUGINS", name)
    pm = create_plugin_manager(entry_points=False)
    assert "seebench.builtin.selu" not in {info.name for info in plugin_infos(pm)}
    assert pm.disabled == ["seebench.builtin.selu"]
    registry = build_registry(pm)
    assert "selu" not in registry.suites
    assert "selu_clean_text" not in registry.prepare_steps
    index = build_task_index(registry)
    assert not [t for t in index.tasks.values() if t.suite == "selu"]
    assert not index.broken


def test_selu_is_a_suite_with_its_metadata():
    registry = build_registry(create_plugin_manager(entry_points=False))
    selu = registry.suite("selu")
    assert selu.plugin == "seebench.builtin.selu"
    assert selu.compare_task_types == ("binary", "multiclass", "multilabel", "regression")
    assert selu.task_families["sentiment"] == "developer communication"
    assert selu.model_groups["CodeLlama 7B"] == "domain-adapted"
    index = build_task_index(registry)
    selu_tasks = {t.name for t in index.tasks.values() if t.suite == "selu"}
    assert len(selu_tasks) == 22
    assert selu_tasks == set(selu.task_families)
    assert {index.origins[t] for t in selu_tasks} == {"seebench.builtin.selu"}


def test_an_unknown_name_is_a_warning(monkeypatch, caplog):
    monkeypatch.setenv("SEEBENCH_DISABLE_PLUGINS", "selu,no_such_plugin")
    with caplog.at_level(logging.WARNING, logger="seebench"):
        create_plugin_manager(entry_points=False)
    (warning,) = caplog.messages
    assert warning.startswith(
        "SEEBENCH_DISABLE_PLUGINS: no plugin named 'no-such-plugin'; built-in: "
    )
    assert "selu" in warning  # listed among the built-ins, and itself matched (no warning)


def test_commands_run_without_selu(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("SEEBENCH_DISABLE_PLUGINS", "selu")
    assert run(["tasks", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert not [r for r in rows if r["suite"] == "selu"]
    assert all(r["status"] == "ok" for r in rows)
    assert run(["tasks", "suites"]) == 0
    assert not [line for line in capsys.readouterr().out.splitlines() if line.startswith("selu ")]
    assert run(["data", "status"]) == 0
    assert "selu" not in capsys.readouterr().out.lower()
    # compare still works on a score table; it only lacks the suite's families and groups
    out = tmp_path / "lb"
    assert (
        run(["compare", str(SELU_CSV), "--out", str(out), "--nsamples", "200", "--format", "json"])
        == 0
    )
    data = json.loads((out / "leaderboard.json").read_text())
    assert {t["family"] for t in data["tasks"]} == {"unknown"}
    assert {r["group"] for r in data["ranking"]} == {""}


@pytest.mark.parametrize("name", ["example", "seebench-example"])
def test_a_third_party_plugin_is_disabled_by_entry_point_or_distribution_name(name):
    pytest.importorskip("seebench_example", reason="pip install -e plugins/seebench-example")
    code, out, err = run_cli(["plugins", "--json"], env={"SEEBENCH_DISABLE_PLUGINS": name})
    assert code == 0, err
    assert "example" not in {p["name"] for p in json.loads(out)}
    assert "no plugin named" not in err
