"""A broken third-party plugin harms no one: one that raises at import (installed through a
real entry point) is reported in one warning line naming its distribution, the error and how
to disable it; ``tasks list`` shows its tasks as broken; ``eval`` of another suite, ``view``
and ``compare`` work; the run's registry lists it as missing. Failing to register, a typo
in a hook name and loading one module twice are one line too."""

from __future__ import annotations

import json
import logging
import types
from pathlib import Path

import pytest

from seebench.errors import PluginError
from seebench.plugin_manager import build_registry, create_plugin_manager, plugin_infos
from tests.cli.test_cli import run_cli
from tests.conftest import make_binary_task
from tests.plugins import good_plugin

WARNING = "plugin 'broken' (from broken-severity 0.3.0) is not loaded"


def install_broken_plugin(site: Path) -> Path:
    """An installed distribution ``broken-severity`` whose plugin module raises at import and
    which ships one task, as pip would lay it out (``RECORD`` lists its files)."""
    package = site / "broken_severity"
    (package / "tasks").mkdir(parents=True)
    (package / "__init__.py").write_text("from tests.plugins.raising_plugin import *  # noqa\n")
    (package / "tasks" / "broken_title.yaml").write_text("name: broken_title\nsuite: brokensuite\n")
    info = site / "broken_severity-0.3.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-severity\nVersion: 0.3.0\n")
    (info / "entry_points.txt").write_text("[seebench]\nbroken = broken_severity\n")
    files = ["broken_severity/__init__.py", "broken_severity/tasks/broken_title.yaml"]
    (info / "RECORD").write_text("".join(f"{f},,\n" for f in files))
    return site


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    root = tmp_path_factory.mktemp("broken")
    site = install_broken_plugin(root / "site")
    tasks = root / "tasks"
    for name in ("alpha", "beta", "gamma"):
        make_binary_task(tasks, name)
    from tests.conftest import REPO_ROOT

    env = {
        "PYTHONPATH": f"{REPO_ROOT}:{site}",
        "SEEBENCH_HOME": str(root / "home"),
        "SEEBENCH_LOAD_PLUGINS": "broken-severity",
    }
    return {"root": root, "tasks": tasks, "env": env}


def _warnings(err: str) -> list[str]:
    return [line for line in err.splitlines() if "plugin 'broken'" in line]


def test_tasks_list_warns_once_and_shows_its_tasks_as_broken(world: dict) -> None:
    code, out, err = run_cli(["tasks", "list", "--json"], env=world["env"])
    assert code == 0, err
    (line,) = _warnings(err)
    assert line.startswith("warning: " + WARNING)
    assert "RuntimeError: the plugin's dependency is missing" in line
    assert "SEEBENCH_DISABLE_PLUGINS=broken" in line
    rows = {row["name"]: row for row in json.loads(out)}
    assert rows["broken_title"]["status"] == "broken"
    assert rows["broken_title"]["suite"] == "brokensuite"
    assert WARNING in rows["broken_title"]["problems"][0]
    assert sum(row["status"] == "ok" for row in rows.values()) >= 60  # the built-in suites


def test_eval_view_and_compare_of_another_suite_work(world: dict) -> None:
    root, env = world["root"], world["env"]
    results = root / "results"
    for model in ("majority", "random"):
        code, out, err = run_cli(
            ["eval", "--model", model, "--tasks", "alpha,beta,gamma", "--include-path",
             str(world["tasks"]), "--output", str(results), "--no-progress"],
            env=env,
        )  # fmt: skip
        assert code == 0, out + err
        assert len(_warnings(err)) == 1, err
    assert json.loads((results / "majority/baseline/alpha.json").read_text())["status"] == "ok"
    code, out, err = run_cli(["compare", str(results), "--out", str(root / "board")], env=env)
    assert code == 0, out + err
    assert len(_warnings(err)) == 1, err
    assert (root / "board" / "leaderboard.json").is_file()
    code, out, err = run_cli(["view", str(results), "--export", str(root / "site-out")], env=env)
    assert code == 0, out + err
    assert len(_warnings(err)) == 1, err
    assert any((root / "site-out").rglob("*.html"))


def test_its_own_task_says_why_it_cannot_run(world: dict) -> None:
    code, _, err = run_cli(
        ["eval", "--model", "majority", "--tasks", "broken_title", "--no-progress"],
        env=world["env"],
    )
    assert code == 1
    assert "task 'broken_title' is invalid: " + WARNING in err
    assert "Traceback" not in err


def test_plugins_list_shows_it_not_loaded(world: dict) -> None:
    code, out, err = run_cli(["plugins", "list", "--json"], env=world["env"])
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["name"] == "broken" and row["distribution"] == "broken-severity"
    assert row["status"].startswith("not loaded: failed to import: RuntimeError")


def test_disabling_it_silences_it(world: dict) -> None:
    env = {**world["env"], "SEEBENCH_DISABLE_PLUGINS": "broken"}
    code, out, err = run_cli(["tasks", "list", "--json"], env=env)
    assert code == 0 and not _warnings(err)
    assert "broken_title" not in {row["name"] for row in json.loads(out)}


def test_the_allowlist_keeps_it_out_silently(world: dict) -> None:
    code, out, err = run_cli(
        ["plugins", "list", "--json"], env={**world["env"], "SEEBENCH_LOAD_PLUGINS": ""}
    )
    assert code == 0 and json.loads(out) == []  # the allowlist keeps it out: no warning
    assert not _warnings(err)


def test_missing_plugins_of_a_selection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.raising_plugin")
    pm = create_plugin_manager(entry_points=False)
    registry = build_registry(pm)
    (record,) = registry.plugin_problems
    assert record["plugin"] == "tests.plugins.raising_plugin"
    assert record["error"].startswith("failed to import: RuntimeError")
    assert registry.missing_plugins("all") == [record]
    assert registry.missing_plugins("selu") == []  # its tasks are unknown: only 'all' has them
    assert record["distribution"] == "<SEEBENCH_PLUGINS>"


def _plugin(**hooks: object) -> types.ModuleType:
    module = types.ModuleType("third_party_plugin")
    for name, function in hooks.items():
        setattr(module, name, good_plugin.hookimpl(function))
    return module


def test_a_plugin_failing_to_register_is_left_out(monkeypatch, caplog) -> None:
    def register_metrics(register):
        register("f1_macro", "x:y")  # already registered by the built-ins

    def register_methods(register):
        register("only-mine", "x:y")

    module = _plugin(register_metrics=register_metrics, register_methods=register_methods)
    monkeypatch.setitem(__import__("sys").modules, "third_party_plugin", module)
    monkeypatch.setenv("SEEBENCH_PLUGINS", "third_party_plugin")
    with caplog.at_level(logging.WARNING, logger="seebench"):
        registry = build_registry(create_plugin_manager(entry_points=False))
    assert "only-mine" not in registry.methods  # nothing of it is kept
    assert registry.metrics["f1_macro"].plugin == "seebench.builtin.metrics"
    (line,) = [r.getMessage() for r in caplog.records if "third_party_plugin" in r.getMessage()]
    assert "registered metric 'f1_macro', already registered by" in line


def test_a_typo_in_a_third_party_hook_is_one_line(monkeypatch, caplog) -> None:
    module = _plugin(register_metric=lambda register: None)
    monkeypatch.setitem(__import__("sys").modules, "third_party_plugin", module)
    monkeypatch.setenv("SEEBENCH_PLUGINS", "third_party_plugin")
    with caplog.at_level(logging.WARNING, logger="seebench"):
        pm = create_plugin_manager(entry_points=False)
    assert not pm.has_plugin("third_party_plugin")
    (line,) = [r.getMessage() for r in caplog.records if "third_party_plugin" in r.getMessage()]
    assert "implements unknown hook 'register_metric'" in line and "\n" not in line


def test_loading_one_module_twice_is_one_line(monkeypatch, caplog) -> None:
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.good_plugin")
    with caplog.at_level(logging.WARNING, logger="seebench"):
        pm = create_plugin_manager(((good_plugin, "good"),), entry_points=False)
    (line,) = [r.getMessage() for r in caplog.records]
    assert "already loaded as 'good'" in line and "\n" not in line and len(line) < 300
    assert [i.name for i in plugin_infos(pm)].count("good") == 1


def test_embedded_plugins_stay_strict() -> None:
    with pytest.raises(PluginError, match="already loaded as 'good'; load it once"):
        create_plugin_manager(((good_plugin, "good"), (good_plugin, "again")), entry_points=False)


@pytest.mark.parametrize(
    ("selector", "concerned"),
    [
        ("all", True),
        ("brokensuite", True),
        ("alpha, broken_title", True),
        ("alpha,beta", False),
        ("selu", False),
    ],
)
def test_a_selection_concerns_a_left_out_plugin_by_its_tasks_or_suites(selector, concerned):
    from seebench.registry import Registry

    record = {"plugin": "broken", "tasks": ["broken_title"], "suites": ["brokensuite"]}
    registry = Registry(plugin_problems=[record])
    assert registry.missing_plugins(selector) == ([record] if concerned else [])
