"""Sub-plugins: a plugin's declared ``SEEBENCH_SUBPLUGINS`` are registered after it, checked
like any plugin, and disabled with it (the Copilot suite's scenarios are sub-plugins)."""

from __future__ import annotations

import types

import pytest

from seebench.errors import PluginError
from seebench.plugin_manager import (
    build_registry,
    create_plugin_manager,
    plugin_infos,
    subplugin_short_name,
)
from seebench.suites.copilot.plugin import SCENARIOS

COPILOT = "seebench.builtin.copilot"


def parent(*subplugins) -> types.ModuleType:
    module = types.ModuleType("parent_plugin")
    module.SEEBENCH_SUBPLUGINS = subplugins
    return module


def test_copilot_scenarios_are_sub_plugins_named_after_their_parent():
    pm = create_plugin_manager(entry_points=False)
    names = [info.name for info in plugin_infos(pm)]
    expected = [f"{COPILOT}.{scenario}" for scenario in SCENARIOS]
    start = names.index(COPILOT) + 1
    assert names[start : start + len(expected)] == expected  # right after the parent
    registry = build_registry(pm)
    assert registry.task_type("copilot_doc").plugin == f"{COPILOT}.doc"
    assert registry.methods["null"].plugin == COPILOT


def test_disabling_the_parent_disables_its_sub_plugins(monkeypatch):
    monkeypatch.setenv("SEEBENCH_DISABLE_PLUGINS", "copilot")
    pm = create_plugin_manager(entry_points=False)
    assert not [info.name for info in plugin_infos(pm) if info.name.startswith(COPILOT)]
    registry = build_registry(pm)
    assert "copilot_doc" not in registry.task_types


def test_a_misspelt_hook_in_a_sub_plugin_names_it():
    with pytest.raises(
        PluginError, match=r"plugin 'outer\.typo_plugin' .*unknown hook 'register_metric'"
    ):
        create_plugin_manager(((parent("tests.plugins.typo_plugin"), "outer"),), entry_points=False)


def test_a_sub_plugin_that_cannot_be_imported_names_its_parent():
    with pytest.raises(PluginError, match=r"plugin 'outer' .*sub-plugin 'no_such_module_x' failed"):
        create_plugin_manager(((parent("no_such_module_x"), "outer"),), entry_points=False)


def test_sub_plugins_must_be_a_tuple_of_module_names():
    module = types.ModuleType("parent_plugin")
    module.SEEBENCH_SUBPLUGINS = "tests.plugins.good_plugin"
    with pytest.raises(PluginError, match="must be a tuple of module names"):
        create_plugin_manager(((module, "outer"),), entry_points=False)


@pytest.mark.parametrize(
    ("module", "short"),
    [("seebench.suites.copilot.doc.plugin", "doc"), ("pkg.extra", "extra"), ("plugin", "plugin")],
)
def test_sub_plugin_short_names(module, short):
    assert subplugin_short_name(module) == short
