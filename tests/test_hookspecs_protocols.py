"""The ``register`` protocols in :mod:`seebench.hookspecs` match what the registry accepts."""

from __future__ import annotations

import inspect

import pytest

from seebench import hookspecs
from seebench.registry import Registry, RegistryBuilder

BUILDERS = {
    "register_task_types": "task_type",
    "register_task_dirs": "task_dir",
    "register_metrics": "metric",
    "register_scorers": "scorer",
    "register_methods": "method",
    "register_models": "model",
    "register_backends": "backend",
    "register_data_readers": "data_reader",
    "register_data_files": "data_file",
    "register_prepare_steps": "prepare_step",
    "register_exporters": "exporter",
    "register_suites": "suite",
}


def _parameters(function) -> tuple[list[str], set[tuple[str, object]]]:
    """Positional names in order, and keyword-only (name, default) pairs in any order."""
    parameters = [p for p in inspect.signature(function).parameters.values() if p.name != "self"]
    positional = [p.name for p in parameters if p.kind is not p.KEYWORD_ONLY]
    keywords = {(p.name, p.default) for p in parameters if p.kind is p.KEYWORD_ONLY}
    return positional, keywords


def test_every_registration_hook_has_a_protocol():
    registration = [h for h in hookspecs._all_hook_names() if h.startswith("register_")]
    # register_commands hands in the click group; executors are kept by seebench.executors
    others = ("register_commands", "register_executors")
    assert sorted(BUILDERS) == sorted(h for h in registration if h not in others)


@pytest.mark.parametrize("hook", sorted(BUILDERS))
def test_protocol_matches_the_registry_callback(hook):
    protocol_name = inspect.signature(getattr(hookspecs, hook)).parameters["register"].annotation
    protocol = getattr(hookspecs, protocol_name)
    register = getattr(RegistryBuilder(Registry()), BUILDERS[hook])("test-plugin")
    assert _parameters(protocol.__call__) == _parameters(register)


def test_hookimpl_is_defined_beside_hookspec_and_still_exported_by_the_loader():
    from seebench import hookimpl
    from seebench.plugin_manager import hookimpl as old_hookimpl

    assert hookimpl is hookspecs.hookimpl is old_hookimpl


def test_every_registration_hookimpl_is_annotated_with_its_protocol():
    """A built-in (or bundled) plugin's ``register`` is typed with the hook's Protocol, so
    mypy checks each registration call (a misspelt keyword, a missing ``default_method``)."""
    from seebench.plugin_manager import create_plugin_manager

    pm = create_plugin_manager()
    checked, wrong = 0, []
    for hook in hookspecs._all_hook_names():
        if not hook.startswith("register_"):
            continue
        spec = inspect.signature(getattr(hookspecs, hook)).parameters
        for impl in getattr(pm.hook, hook).get_hookimpls():
            if not impl.function.__module__.startswith("seebench"):
                continue  # a test's or a third party's plugin
            checked += 1
            got = inspect.signature(impl.function).parameters
            if [p.annotation for p in got.values()] != [p.annotation for p in spec.values()]:
                wrong.append(f"{impl.function.__module__}.{hook}")
    assert checked > 80
    assert wrong == []
