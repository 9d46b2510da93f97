"""ensure_env: building, the baseline, the cache and its records."""

from __future__ import annotations

import json
import os

from seebench.suites.copilot.repos.envs import (
    NOT_BUILT,
    NOT_WHOLE,
    ensure_env,
    read_record,
)

from .conftest import TINY_PYTHON, staged

TESTS = "tests/test_calc.py"


def test_baseline_records_passing_and_failing_tests(python_env):
    repo, env = python_env
    assert env.runner == "pytest"
    assert env.passing == {f"{TESTS}::test_add", f"{TESTS}::test_mul"}
    assert env.failing == {f"{TESTS}::test_half"}
    assert env.build_seconds > 0 and env.suite_seconds > 0
    record = json.loads((env.root / "record.json").read_text())
    assert record["settings"]["pythonpath"][0] == "src"  # the src layout is found
    # the project itself is not installed: runs import the (changed) copy of the tree
    assert not list((env.root / "venv").glob("lib/python3*/site-packages/tinycalc*"))


def test_a_cached_environment_is_returned_without_rebuilding(python_env):
    repo, env = python_env
    stamp = os.stat(env.root / "record.json").st_mtime_ns
    again = ensure_env(repo)
    assert again == env
    assert ensure_env(repo, build=False) == env
    assert os.stat(env.root / "record.json").st_mtime_ns == stamp


def test_an_unbuilt_repository_is_excluded_without_build(tmp_path):
    repo = staged(tmp_path, TINY_PYTHON, name="tiny/other")
    env = ensure_env(repo, build=False)
    assert env.status == "excluded" and env.reason == NOT_BUILT


def test_partial_trees_and_trees_without_manifest_are_excluded(tmp_path):
    partial = staged(tmp_path, TINY_PYTHON, name="tiny/partial", whole_tree=False)
    assert ensure_env(partial).reason == NOT_WHOLE
    bare = staged(tmp_path, {"main.py": "print(1)\n"}, name="tiny/bare")
    env = ensure_env(bare)
    assert env.status == "excluded" and "no python manifest" in env.reason


def test_a_bad_cached_record_is_rejected(python_env, tmp_path):
    repo, env = python_env
    path = env.root / "record.json"
    good = json.loads(path.read_text())
    manifest = env.manifest_sha256
    copy = tmp_path / "record.json"

    def rejected(change) -> str:
        data = json.loads(json.dumps(good))
        change(data)
        copy.write_text(json.dumps(data))
        result = read_record(copy, repo, manifest)
        assert isinstance(result, str), result
        return result

    assert "passing" in rejected(lambda d: d["env"].update(passing="all"))
    assert "commit" in rejected(lambda d: d["env"].update(commit="b" * 40))
    assert "status" in rejected(lambda d: d["env"].update(status="great"))
    assert "build_seconds" in rejected(lambda d: d["env"].update(build_seconds=-1))
    assert "format" in rejected(lambda d: d.update(format=99))
    copy.write_text("{not json")
    assert "unreadable" in read_record(copy, repo, manifest)
    # in place: a damaged record is not trusted; without --build the env reads as not built
    saved = path.read_text()
    try:
        path.write_text(json.dumps({**good, "format": 0}))
        env_now = ensure_env(repo, build=False)
        assert env_now.status == "excluded" and NOT_BUILT in env_now.reason
    finally:
        path.write_text(saved)
    assert ensure_env(repo, build=False) == env
