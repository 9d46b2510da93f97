"""Shared fixtures: an isolated SEEBENCH_HOME and fresh plugin/registry caches per test."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from seebench import plugin_manager
from seebench.tasks import index as task_index

REPO_ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "requires(*tools): needs optional system tools (tests/requirements.py)"
    )
    config.addinivalue_line(
        "markers", "bare: must pass without the optional system tools (.ci/run's bare job)"
    )


#: fixtures that use an optional system tool: a test using one is marked as requiring it
FIXTURE_TOOLS = {"analyzers_ok": "npm", "analyzer_ok": "npm"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        names = getattr(item, "fixturenames", ())
        for fixture, tool in FIXTURE_TOOLS.items():
            if fixture in names:
                item.add_marker(pytest.mark.requires(tool))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip (or fail, where required) a test marked ``requires`` whose tools are missing,
    before any of its fixtures run."""
    from tests.requirements import need

    for mark in item.iter_markers("requires"):
        for name in mark.args:
            need(name)


def _reset_caches() -> None:
    from seebench.secrets import forget_registered_secrets

    forget_registered_secrets()
    plugin_manager.reset()
    task_index.set_include_paths(())  # also clears the task index cache


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Every test gets its own empty seebench cache and freshly loaded plugins."""
    home = tmp_path_factory.mktemp("seebench-home")
    monkeypatch.setenv("SEEBENCH_HOME", str(home))
    monkeypatch.delenv("SEEBENCH_LOAD_PLUGINS", raising=False)
    monkeypatch.delenv("SEEBENCH_TRACE_PLUGINS", raising=False)
    monkeypatch.delenv("SEEBENCH_PLUGINS", raising=False)
    _reset_caches()
    yield home
    _reset_caches()


def write_task(directory: Path, name: str, body: str) -> Path:
    """Write ``<name>.yaml`` (dedented) into ``directory`` and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.yaml"
    path.write_text(textwrap.dedent(body).lstrip())
    return path


ISSUE_TITLES = [
    ("Crash when saving a file with unicode name", 1),
    ("Add dark mode", 0),
    ("NullPointerException in parser on empty input", 1),
    ("Support YAML config", 0),
    ("Login fails after upgrade to 2.3", 1),
    ("Document the REST API", 0),
    ("Memory leak in image cache", 1),
    ("Question about proxy settings", 0),
    ("Wrong totals in exported CSV", 1),
    ("Feature request: bulk edit", 0),
]


def make_binary_task(directory: Path, name: str, rows: int = 40, **extra: str) -> Path:
    """A valid binary task ``name`` with ``rows`` JSONL rows shipped beside its YAML."""
    import json

    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / f"{name}.jsonl", "w") as handle:
        for i in range(rows):
            title, label = ISSUE_TITLES[i % len(ISSUE_TITLES)]
            handle.write(json.dumps({"title": f"{title} (#{i})", "bug": label}) + "\n")
    body = f"""
    name: {name}
    suite: tmp
    version: 1
    type: binary
    labels:
      - {{name: bug, value: 1}}
      - {{name: other, value: 0}}
    data:
      sources:
        - {{path: {name}.jsonl, format: jsonl}}
      prepare:
        - {{step: select, columns: {{input: title, target: bug}}}}
    metrics: [f1_macro, accuracy]
    """
    for key, value in extra.items():
        body += f"    {key}: {value}\n"
    return write_task(directory, name, body)
