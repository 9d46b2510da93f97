"""``seebench leaderboard build`` and ``seebench reproduce``: a folder made from one run file,
and the reproducibility certificate that catches a tampered metric, a changed data file and
another seebench version, and notes another seebench commit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from tests.cli.test_cli import REPO_ROOT
from tests.conftest import make_binary_task


def run_cli(args, env=None):
    """``seebench ARGS`` in a fresh interpreter (a longer timeout than other CLI tests: a
    build runs a sweep and a comparison); (exit code, stdout, stderr)."""
    full_env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})}
    proc = subprocess.run(
        [sys.executable, "-m", "seebench.cli.main", *args],
        env=full_env,
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=900,
    )
    return proc.returncode, proc.stdout, proc.stderr


BOARD = """
title: Tiny board
runs:
  - name: baselines
    models: [majority, random]
    tasks: [alpha, beta, gamma]
    bootstrap: 50
compare: {nsamples: 1000}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A board of two baselines on three tasks, built once."""
    root = tmp_path_factory.mktemp("board")
    for name in ("alpha", "beta", "gamma"):
        make_binary_task(root / "tasks", name, rows=30)
    env = {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(root / "tasks"),
        "SEEBENCH_HOME": str(root / "home"),
    }
    folder = root / "published"
    folder.mkdir()
    (folder / "board.yaml").write_text(BOARD)
    code, stdout, stderr = run_cli(["leaderboard", "build", str(folder)], env=env)
    assert code == 0, stderr
    return root, folder, env


@pytest.fixture
def board(built, tmp_path):
    """A fresh copy of the built board and its tasks, for one test to change."""
    root, folder, env = built
    shutil.copytree(root / "tasks", tmp_path / "tasks")
    shutil.copytree(folder, tmp_path / "published")
    env = {**env, "SEEBENCH_TEST_TASK_DIR": str(tmp_path / "tasks")}
    return tmp_path / "published", env, tmp_path


def reproduce(folder, env, scratch, *extra):
    return run_cli(["reproduce", str(folder), "--out", str(scratch), *extra], env=env)


def test_build_writes_tables_manifest_and_timings(built):
    _, folder, _ = built
    assert (folder / "leaderboard.md").is_file() and (folder / "leaderboard.csv").is_file()
    manifest = json.loads((folder / "manifest.json").read_text())
    units = {u["unit"]: u for u in manifest["units"]}
    assert set(units) == {
        f"{m}/baseline/{t}.json" for m in ("majority", "random") for t in ("alpha", "beta", "gamma")
    }
    assert all(u["run"] == "baselines" and len(u["result_sha256"]) == 64 for u in units.values())
    assert units["majority/baseline/alpha.json"]["data"]  # the data file's sha256
    provenance = (folder / "provenance.md").read_text()
    assert "| majority/baseline | 3 |" in provenance  # wall and CPU seconds per method
    assert units["majority/baseline/alpha.json"]["data"]["alpha"] in provenance
    build = json.loads((folder / "build.json").read_text())
    assert [r["run"] for r in build["runs"]] == ["baselines"]
    assert build["runs"][0]["cpu_s"] >= 0 and build["runs"][0]["command"].startswith(
        "seebench eval"
    )


@pytest.mark.parametrize("mode", [["--rescore"], []], ids=["rescore", "rerun"])
def test_an_untouched_board_reproduces_identically(board, mode):
    folder, env, tmp = board
    code, stdout, stderr = reproduce(folder, env, tmp / "scratch", *mode)
    assert code == 0, stdout + stderr[-3000:]
    assert "6 unit(s): 6 identical, 0 within tolerance, 0 different" in stdout
    certificate = json.loads((tmp / "scratch" / "reproduce.json").read_text())
    assert {u["status"] for u in certificate["units"]} == {"identical"}


def _tamper(path, manifest_path, update_manifest):
    result = json.loads(path.read_text())
    metric = result["primary_metric"]
    result["metrics"][metric] = 0.99
    path.write_text(json.dumps(result))
    if update_manifest:  # a careful forger makes the manifest agree
        from seebench.leaderboard.certificate import file_sha256

        manifest = json.loads(manifest_path.read_text())
        for unit in manifest["units"]:
            if unit["unit"] == "random/baseline/beta.json":
                unit["metrics"][metric] = 0.99
                unit["result_sha256"] = file_sha256(path)
        manifest_path.write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    "update_manifest", [False, True], ids=["result-only", "result-and-manifest"]
)
def test_a_tampered_stored_metric_is_different(board, update_manifest):
    folder, env, tmp = board
    _tamper(folder / "results/random/baseline/beta.json", folder / "manifest.json", update_manifest)
    code, stdout, _ = reproduce(folder, env, tmp / "scratch", "--rescore")
    assert code == 1
    line = next(x for x in stdout.splitlines() if x.startswith("random/baseline/beta.json"))
    assert "different" in line and "0.99" in line
    assert "5 identical, 0 within tolerance, 1 different" in stdout


def test_a_changed_data_file_is_different(board):
    folder, env, tmp = board
    data = tmp / "tasks" / "gamma.jsonl"
    data.write_text(data.read_text().replace("(#1)", "(#1, edited)"))
    code, stdout, stderr = reproduce(folder, env, tmp / "scratch", "--rescore")
    assert code == 1, stdout + stderr
    gamma = [x for x in stdout.splitlines() if "/gamma.json" in x]
    assert len(gamma) == 2 and all("different" in x for x in gamma), stdout
    alpha = [x.split() for x in stdout.splitlines() if "/alpha.json" in x]
    assert [words[1] for words in alpha] == ["identical", "identical"]


def test_another_seebench_version_is_reported(board):
    folder, env, tmp = board
    manifest = json.loads((folder / "manifest.json").read_text())
    for unit in manifest["units"]:
        unit["seebench_version"] = "0.0.1"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    code, stdout, _ = reproduce(folder, env, tmp / "scratch", "--rescore")
    assert code == 1
    assert "made with seebench 0.0.1, reproduced with" in stdout


def test_another_seebench_commit_is_noted_not_failed(board):
    folder, env, tmp = board
    manifest = json.loads((folder / "manifest.json").read_text())
    for unit in manifest["units"]:
        unit["seebench_source"] = {"commit": "0" * 40, "dirty": False}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    code, stdout, stderr = reproduce(folder, env, tmp / "scratch", "--rescore")
    assert code == 0, stdout + stderr[-3000:]
    assert "6 unit(s): 6 identical, 0 within tolerance, 0 different" in stdout
    assert "note: 6 unit(s) made at seebench commit 000000000000, reproduced at " in stdout
    certificate = json.loads((tmp / "scratch" / "reproduce.json").read_text())
    assert all(u["source"].startswith("made at seebench commit 0000") for u in certificate["units"])


def test_a_difference_within_tolerance_names_its_cause(board):
    from seebench.leaderboard.certificate import file_sha256

    folder, env, tmp = board
    text = (
        (folder / "board.yaml")
        .read_text()
        .replace(
            "    bootstrap: 50\n",
            "    bootstrap: 50\n    tolerance: {abs: 0.5, cause: BLAS threads}\n",
        )
    )
    (folder / "board.yaml").write_text(text)
    # as published from another machine: the result and its manifest entry agree, and the
    # metric is a little off what this machine computes from the same samples
    path = folder / "results/majority/baseline/alpha.json"
    result = json.loads(path.read_text())
    metric = result["primary_metric"]
    result["metrics"][metric] += 0.01
    path.write_text(json.dumps(result))
    manifest = json.loads((folder / "manifest.json").read_text())
    unit = next(u for u in manifest["units"] if u["unit"] == "majority/baseline/alpha.json")
    unit["metrics"][metric] = result["metrics"][metric]
    unit["result_sha256"] = file_sha256(path)
    (folder / "manifest.json").write_text(json.dumps(manifest))
    code, stdout, stderr = reproduce(folder, env, tmp / "scratch", "--rescore")
    line = next(x for x in stdout.splitlines() if x.startswith("majority/baseline/alpha.json"))
    assert "within tolerance" in line and "BLAS threads" in line
    assert code == 0, stdout + stderr


def test_a_bad_board_file_is_one_line(tmp_path):
    (tmp_path / "board.yaml").write_text(
        "runs:\n  - name: x\n    tasks: [a]\n    modle: majority\n"
    )
    code, _, stderr = run_cli(["leaderboard", "build", str(tmp_path)])
    assert code == 1
    assert stderr.strip().startswith("error: ") and "board.yaml" in stderr
    assert len(stderr.strip().splitlines()) == 1
