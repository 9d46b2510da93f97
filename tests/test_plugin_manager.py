"""Loading plugins: built-ins, extra plugins, errors that name the plugin, the allowlist."""

from __future__ import annotations

import logging

import pytest

from seebench.errors import PluginError
from seebench.events import UnitFinished
from seebench.plugin_manager import (
    DEFAULT_PLUGINS,
    build_registry,
    create_plugin_manager,
    get_plugin_manager,
    plugin_infos,
)
from seebench.suites.copilot.plugin import SCENARIOS
from tests.plugins import (
    duplicate_metric_plugin,
    failing_observer_plugin,
    good_plugin,
    typo_plugin,
    wrong_args_plugin,
)


def test_builtins_are_plugins():
    pm = create_plugin_manager(entry_points=False)
    names = {info.name for info in plugin_infos(pm)}
    assert set(DEFAULT_PLUGINS) <= names
    assert all(info.distribution == "seebench" for info in plugin_infos(pm) if info.builtin)


def test_good_plugin_registers_everything():
    pm = create_plugin_manager(((good_plugin, "good"),), entry_points=False)
    registry = build_registry(pm)
    assert registry.task_types["ranking"].plugin == "good"
    assert registry.metric("always_half").load()([1], [1]) == 0.5
    assert registry.method("echo").plugin == "good"
    assert registry.model_entry("echo-model").default_method == "echo"
    assert "lines" in registry.data_readers and "upper" in registry.prepare_steps
    assert "text" in registry.exporters
    assert registry.scorer("length").load()(min_length=2).identity() == {"min_length": 2}
    info = next(i for i in plugin_infos(pm) if i.name == "good")
    assert "register_metrics" in info.hooks and "on_unit_finished" in info.hooks


def test_unknown_hook_names_the_plugin():
    with pytest.raises(
        PluginError, match=r"plugin 'typo' .* implements unknown hook 'register_metric'"
    ):
        create_plugin_manager(((typo_plugin, "typo"),), entry_points=False)


def test_wrong_argument_names_the_plugin():
    with pytest.raises(PluginError, match=r"plugin 'wrong' .*is invalid.*reg"):
        create_plugin_manager(((wrong_args_plugin, "wrong"),), entry_points=False)


def test_duplicate_registration_names_both_plugins():
    pm = create_plugin_manager(((duplicate_metric_plugin, "dup"),), entry_points=False)
    with pytest.raises(
        PluginError,
        match=r"plugin 'dup' registered metric 'f1_macro', already registered by 'seebench.builtin.metrics'",
    ):
        build_registry(pm)


def test_failing_observer_is_logged_not_raised(monkeypatch, caplog):
    pm = create_plugin_manager(((failing_observer_plugin, "broken"),), entry_points=False)
    registry = build_registry(pm)
    names = [name for name, _ in registry.observers]  # the built-in trackers observe too
    assert names[-1] == "broken"
    assert all(n.startswith("seebench.trackers.") for n in names[:-1])
    with caplog.at_level(logging.WARNING, logger="seebench"):
        registry.notify_unit_finished(UnitFinished("m", "x", "t", "ok"))
    assert "observer plugin 'broken' failed" in caplog.text


class _Cached:
    """Stands in for the cached get_plugin_manager (keeps cache_clear working)."""

    def __init__(self, pm):
        self.pm = pm

    def __call__(self):
        return self.pm

    def cache_clear(self):
        pass


def test_allowlist_excludes_entry_point_plugins(monkeypatch):
    monkeypatch.setenv("SEEBENCH_LOAD_PLUGINS", "")
    names = {info.name for info in plugin_infos(get_plugin_manager())}
    subplugins = {f"seebench.builtin.copilot.{scenario}" for scenario in SCENARIOS}
    assert names == set(DEFAULT_PLUGINS) | subplugins


def test_registration_errors_blame_the_plugin():
    class Bad:
        @staticmethod
        def register_task_dirs(register):
            register("/no/such/dir")

    Bad.register_task_dirs = good_plugin.hookimpl(Bad.register_task_dirs)
    pm = create_plugin_manager(((Bad, "bad"),), entry_points=False)
    with pytest.raises(PluginError, match="plugin 'bad' registered task directory /no/such/dir"):
        build_registry(pm)
