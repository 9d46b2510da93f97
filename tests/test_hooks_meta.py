"""Meta-tests: every hook is documented with its exact signature and exercised by a test."""

from __future__ import annotations

import inspect

import pytest

from seebench import hookspecs
from tests.conftest import REPO_ROOT

HOOKS = hookspecs._all_hook_names()


def signature_text(name: str) -> str:
    signature = inspect.signature(getattr(hookspecs, name))
    params = ", ".join(f"{p.name}: {p.annotation}" for p in signature.parameters.values())
    return f"{name}({params}) -> {signature.return_annotation}"


def test_there_are_hooks():
    assert "register_metrics" in HOOKS and "on_unit_finished" in HOOKS


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_is_documented_with_exact_signature(hook):
    docs = (REPO_ROOT / "docs" / "plugins.md").read_text()
    assert f"`{signature_text(hook)}`" in docs


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_has_a_docstring(hook):
    assert (getattr(hookspecs, hook).__doc__ or "").strip()


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_is_implemented_by_a_test_plugin(hook):
    plugins = (REPO_ROOT / "tests" / "plugins" / "good_plugin.py").read_text()
    assert f"def {hook}(" in plugins
