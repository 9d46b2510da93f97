"""Executors are plugins: built-ins and a third-party one, and a clear unknown-name error."""

from __future__ import annotations

import pytest

from seebench.errors import SeebenchError
from seebench.executors.registry import executor_entry, executors
from seebench.plugin_manager import create_plugin_manager, get_plugin_manager
from tests.plugins import good_plugin


def test_builtin_and_plugin_executors():
    pm = create_plugin_manager(((good_plugin, "good"),), entry_points=False)
    known = executors(pm)
    assert {"local", "ray", "good-local"} <= set(known)
    assert known["good-local"].plugin == "good"
    from seebench.executors.base import ExecutorOptions
    from seebench.executors.local import LocalExecutor

    assert isinstance(known["good-local"].create(ExecutorOptions()), LocalExecutor)


def test_unknown_executor():
    with pytest.raises(SeebenchError, match=r"unknown executor \(did you mean 'local'\?\)"):
        executor_entry("lokal", get_plugin_manager())
