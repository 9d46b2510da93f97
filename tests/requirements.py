"""The optional system tools tests need, each found one way, and what happens without one.

A test that needs a tool carries ``@requires("wordnet")`` (a ``requires`` mark, checked before
the test's fixtures by ``tests/conftest.py``) or calls :func:`need` from a fixture. Without the
tool the test is skipped with the reason; where the tool's ``SEEBENCH_REQUIRE_*`` variable is
``1`` (``.ci/run`` sets them on its full machine) it fails instead, so that CI cannot pass by
skipping. Where ``SEEBENCH_EXPECT_MISSING`` lists a tool (``.ci/run``'s bare-machine job hides
them), finding it anyway fails: the job proves the tests skip, not that they pass by chance.

Tools are looked up on ``PATH`` only (and WordNet where seebench reads it), so hiding them is
a matter of ``PATH`` and ``SEEBENCH_WORDNET_DIR``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass

import pytest

EXPECT_MISSING_ENV = "SEEBENCH_EXPECT_MISSING"


@dataclass(frozen=True)
class Tool:
    """An optional system tool: how to tell it is missing, and which variable requires it."""

    name: str
    require_env: str
    missing: Callable[[], str | None]  # why it is missing, or None when it is there


def _on_path(*programs: str) -> str | None:
    absent = [p for p in programs if shutil.which(p) is None]
    return f"{', '.join(absent)} not on PATH" if absent else None


def _wordnet() -> str | None:
    from seebench.suites.judge.wordnet import DATABASE_FILES, DEBIAN_PACKAGES, source_dir

    source = source_dir()
    if all((source / name).is_file() for name in DATABASE_FILES):
        return None
    return f"WordNet 3.0 not in {source} (Debian packages {DEBIAN_PACKAGES})"


def _browser() -> str | None:
    if importlib.util.find_spec("selenium") is None:
        return "selenium is not installed (dev extra)"
    return _on_path("chromium", "chromedriver")


def _sandbox() -> str | None:
    from seebench.sandbox import open_sandbox

    box = open_sandbox()
    try:
        return None if box.available else f"no sandbox: {box.reason}"
    finally:
        box.close()


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool("wordnet", "SEEBENCH_REQUIRE_WORDNET", _wordnet),
        Tool("chromium", "SEEBENCH_REQUIRE_BROWSER", _browser),
        Tool("node", "SEEBENCH_REQUIRE_NODE", lambda: _on_path("node")),
        Tool("npm", "SEEBENCH_REQUIRE_NODE", lambda: _on_path("node", "npm")),
        Tool("sandbox", "SEEBENCH_REQUIRE_SANDBOX", _sandbox),
    )
}


def requires(*names: str) -> pytest.MarkDecorator:
    """Mark a test as needing the tools ``names`` (keys of :data:`TOOLS`)."""
    unknown = sorted(set(names) - set(TOOLS))
    if unknown:
        raise ValueError(f"unknown tool(s) {unknown}; known: {sorted(TOOLS)}")
    return pytest.mark.requires(*names)


def expected_missing() -> set[str]:
    """The tools the current job hid on purpose (``SEEBENCH_EXPECT_MISSING``, comma-separated)."""
    return {n.strip() for n in os.environ.get(EXPECT_MISSING_ENV, "").split(",") if n.strip()}


def need(name: str) -> None:
    """Skip the running test without the tool ``name``, or fail where it is required (or where
    it was meant to be hidden but is found)."""
    tool = TOOLS[name]
    reason = tool.missing()
    if reason is None:
        if name in expected_missing():
            pytest.fail(f"{EXPECT_MISSING_ENV} hides {name}, but it was found")
        return
    unavailable(name, reason)


def unavailable(name: str, reason: str) -> None:
    """Skip with ``reason`` (a tool ``name`` is missing), or fail under its require variable."""
    tool = TOOLS[name]
    if os.environ.get(tool.require_env) == "1":
        pytest.fail(f"{tool.require_env}=1 but {reason}")
    pytest.skip(reason)
