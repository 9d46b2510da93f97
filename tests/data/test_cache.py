"""The data cache trusts no file by its name: sha256 verified on read, cheaply, and repaired
by ``data import``."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from seebench.data import cache
from seebench.data.cache import cache_damage, cached_file, store_file
from seebench.data.sources import Source, require_local
from seebench.errors import DataDamagedError
from tests.conftest import write_task

ROWS = [
    {"title": f"Crash number {i}" if i % 2 else f"Feature {i}", "bug": i % 2} for i in range(40)
]
CONTENT = "".join(json.dumps(r) + "\n" for r in ROWS).encode()
SHA = hashlib.sha256(CONTENT).hexdigest()


def _source():
    return Source(
        task="t",
        index=0,
        name="issues",
        format="jsonl",
        url="https://example.invalid/issues.jsonl",
        sha256=SHA,
        path=None,
        options={},
        split=None,
    )


def _cached(tmp_path):
    original = tmp_path / "issues.jsonl"
    original.write_bytes(CONTENT)
    return store_file(original, SHA)


def _damage(path):
    """Delete the last 5 rows (what a bad copy or a careless edit does)."""
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:-5]))


def test_a_damaged_cached_file_is_not_returned_and_is_named(tmp_path):
    path = _cached(tmp_path)
    assert cached_file(SHA) == path
    _damage(path)
    assert cached_file(SHA) is None
    assert str(path) in cache_damage(SHA) and "damaged" in cache_damage(SHA)
    with pytest.raises(
        DataDamagedError, match=r"task 't': cached data file .*issues.jsonl is damaged"
    ):
        require_local(_source())


def test_verification_is_remembered_by_size_and_mtime(tmp_path, monkeypatch):
    path = _cached(tmp_path)
    calls = []
    real = cache.sha256_file
    monkeypatch.setattr(cache, "sha256_file", lambda p: calls.append(p) or real(p))
    cache._verified.clear()
    assert cached_file(SHA) == path and cached_file(SHA) == path
    assert len(calls) == 1  # hashed on the first read only
    cache._verified.clear()  # as in a new process: the stamp file beside it answers
    assert cached_file(SHA) == path and len(calls) == 1
    os.utime(path, ns=(1, 1))  # same content, other mtime: hashed again, still good
    assert cached_file(SHA) == path and len(calls) == 2


def test_data_import_replaces_a_damaged_file_and_eval_recovers(tmp_path, monkeypatch, capsys):
    from seebench.cli.main import main

    tasks = tmp_path / "tasks"
    write_task(
        tasks,
        "cached_task",
        f"""
        name: cached_task
        suite: tmp
        version: 1
        type: binary
        labels:
          - {{name: bug, value: 1}}
          - {{name: other, value: 0}}
        data:
          sources:
            - {{url: "https://example.invalid/issues.jsonl", sha256: {SHA}, format: jsonl}}
          prepare:
            - {{step: select, columns: {{input: title, target: bug}}}}
        metrics: [f1_macro]
        """,
    )
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "issues.jsonl").write_bytes(CONTENT)

    def cli(*args):
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        return exit_info.value.code

    assert cli("data", "import", str(mirror)) == 0
    _damage(cached_file(SHA))
    out = tmp_path / "out"
    assert (
        cli(
            "eval",
            "--model",
            "majority",
            "--tasks",
            "cached_task",
            "--output",
            str(out),
            "--no-progress",
        )
        == 1
    )
    result = json.loads((out / "majority/baseline/cached_task.json").read_text())
    assert result["status"] == "failed" and "is damaged" in result["reason"]
    assert cli("data", "status", "cached_task") == 0
    assert (
        "cached_task              0/1 files  damaged (eval fails until it is replaced)"
        in capsys.readouterr().out
    )
    assert cli("data", "import", str(mirror)) == 0
    assert "(replaced a damaged cached copy)" in capsys.readouterr().out
    assert cached_file(SHA) is not None
    assert (
        cli(
            "eval",
            "--model",
            "majority",
            "--tasks",
            "cached_task",
            "--output",
            str(out),
            "--no-progress",
        )
        == 0
    )
    result = json.loads((out / "majority/baseline/cached_task.json").read_text())
    assert result["status"] == "ok" and result["data"]["counts"]  # n from the whole file
