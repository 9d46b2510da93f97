"""Tiny repositories written by the tests, staged as tars like the real ones, and one
Python environment built from them per session (uv downloads pytest and coverage once).

Tests that build or run need bwrap (build jail and sandbox) and PyPI; they skip without
them, or fail where ``SEEBENCH_REQUIRE_SANDBOX=1`` (CI)."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

import pytest

from seebench.suites.copilot.repos.staging import StagedRepo
from tests.requirements import unavailable

REQUIRE_SANDBOX = os.environ.get("SEEBENCH_REQUIRE_SANDBOX") == "1"
COMMIT_TIME = 1717200000  # 2024-06-01, stamped on every tar entry as git archive does

TINY_PYTHON = {
    "pyproject.toml": (
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n\n'
        '[project]\nname = "tinycalc"\nversion = "0.1"\ndependencies = []\n\n'
        "[project.optional-dependencies]\ntest = []\n\n"
        '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'
    ),
    "src/tinycalc/__init__.py": (
        '"""A tiny calculator."""\n\n\ndef add(a, b):\n    """Sum."""\n    return a + b\n\n\n'
        'def mul(a, b):\n    """Product."""\n    return a * b\n\n\n'
        'def half(a):\n    """Half, wrongly."""\n    return a // 3\n'
    ),
    "tests/test_calc.py": (
        "from tinycalc import add, half, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\n"
        "def test_mul():\n    assert mul(2, 3) == 6\n\n\ndef test_half():\n    assert half(8) == 4\n"
    ),
    "README.md": "tiny\n",
}


TINY_NODE = {
    "package.json": (
        '{"name": "tinyjs", "version": "1.0.0", "private": true,\n'
        ' "scripts": {"test": "node --test"}}\n'
    ),
    "lib/calc.js": (
        "function add(a, b) {\n  return a + b;\n}\n\n"
        "function half(a) {\n  return Math.floor(a / 3);\n}\n\n"
        "module.exports = { add, half };\n"
    ),
    "test/calc.test.js": (
        "const test = require('node:test');\nconst assert = require('node:assert');\n"
        "const { add, half } = require('../lib/calc');\n\n"
        "test.describe('calc', () => {\n"
        "  test.it('adds', () => { assert.strictEqual(add(2, 3), 5); });\n"
        "  test.it('halves', () => { assert.strictEqual(half(8), 4); });\n"
        "});\n"
    ),
    "test/other.test.js": (
        "const test = require('node:test');\nconst assert = require('node:assert');\n"
        "test('truth', () => { assert.ok(true); });\n"
    ),
}


def write_tar(path: Path, files: dict[str, str], mtime: int = COMMIT_TIME) -> Path:
    """A tar like ``git archive`` writes: every entry stamped with the commit time."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w") as archive:
        for name, text in sorted(files.items()):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size, info.mtime, info.mode = len(data), mtime, 0o644
            archive.addfile(info, io.BytesIO(data))
    return path


def staged(tmp: Path, files: dict[str, str], name: str = "tiny/calc", **fields) -> StagedRepo:
    commit = fields.pop("commit", "a" * 40)
    tar = write_tar(tmp / f"{name.replace('/', '+')}@{commit}.tar", files)
    return StagedRepo(
        repo=name,
        commit=commit,
        language=fields.pop("language", "python"),
        whole_tree=fields.pop("whole_tree", True),
        tar=tar,
    )


def need_jail() -> None:
    from seebench.suites.copilot.repos.build_jail import jail_available

    problem = jail_available()
    if problem:
        unavailable("sandbox", problem)


@pytest.fixture(scope="session")
def built_python(tmp_path_factory):
    """(home, repo, env): the tiny Python repository's environment, built once."""
    need_jail()
    from seebench.suites.copilot.repos.envs import ensure_env

    home = tmp_path_factory.mktemp("repo-envs-home")
    repo = staged(tmp_path_factory.mktemp("tars"), TINY_PYTHON)
    previous = os.environ.get("SEEBENCH_HOME")
    os.environ["SEEBENCH_HOME"] = str(home)
    try:
        env = ensure_env(repo)
    finally:
        if previous is None:
            os.environ.pop("SEEBENCH_HOME")
        else:
            os.environ["SEEBENCH_HOME"] = previous
    if env.status != "ready" and not REQUIRE_SANDBOX and "uv pip install" in env.reason:
        pytest.skip(f"cannot build here (PyPI unreachable?): {env.reason}")
    return home, repo, env


@pytest.fixture(scope="session")
def built_node(tmp_path_factory):
    """(home, repo, env): the tiny JavaScript repository's environment (no npm download)."""
    need_jail()
    from seebench.suites.copilot.repos.envs import ensure_env

    home = tmp_path_factory.mktemp("repo-envs-node-home")
    repo = staged(tmp_path_factory.mktemp("tars"), TINY_NODE, name="tiny/js", language="javascript")
    previous = os.environ.get("SEEBENCH_HOME")
    os.environ["SEEBENCH_HOME"] = str(home)
    try:
        env = ensure_env(repo)
    finally:
        if previous is None:
            os.environ.pop("SEEBENCH_HOME")
        else:
            os.environ["SEEBENCH_HOME"] = previous
    return home, repo, env


@pytest.fixture
def node_env(built_node, monkeypatch):
    """The tiny JavaScript repository and its ready environment, in the session's home."""
    home, repo, env = built_node
    monkeypatch.setenv("SEEBENCH_HOME", str(home))
    assert env.status == "ready", env.reason
    return repo, env


@pytest.fixture
def python_env(built_python, monkeypatch):
    """The tiny Python repository and its ready environment, in the session's home."""
    home, repo, env = built_python
    monkeypatch.setenv("SEEBENCH_HOME", str(home))
    assert env.status == "ready", env.reason
    return repo, env
