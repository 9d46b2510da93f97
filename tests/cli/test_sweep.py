"""``seebench eval`` sweeps from the command line: several models, --models-file, the failure
summary with its rerun command, --shard auto/N then ``seebench results merge``."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_cli import run_cli
from tests.conftest import make_binary_task


@pytest.fixture
def env(tmp_path):
    for name in ("alpha", "beta", "gamma"):
        make_binary_task(tmp_path / "tasks", name, rows=20)
    (tmp_path / "flaky").mkdir()
    return {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin,tests.plugins.executor_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tmp_path / "tasks"),
        "SEEBENCH_TEST_FLAKY_DIR": str(tmp_path / "flaky"),
        "SEEBENCH_HOME": str(tmp_path / "home"),
    }


def comparable(path):
    result = json.loads(path.read_text())
    for key in ("timings", "created_at", "environment"):
        result.pop(key)
    result["run"].pop("shard")  # which shard computed it
    return result


def sweep(out, *extra, env):
    return run_cli(
        ["eval", "--tasks", "tmp", "--output", str(out), "--no-progress", *extra], env=env
    )


def test_shard_auto_then_merge_equals_the_unsharded_run(env, tmp_path):
    models = ("--model", "xecho:plain-a,xecho:plain-b")
    code, _, stderr = sweep(tmp_path / "full", *models, env=env)
    assert code == 0, stderr
    for variable, index in (("SLURM_ARRAY_TASK_ID", "0"), ("JOB_COMPLETION_INDEX", "1")):
        code, _, stderr = sweep(
            tmp_path / f"shard{index}", *models, "--shard", "auto/2", env={**env, variable: index}
        )
        assert code == 0, stderr
    counts = [len(list((tmp_path / f"shard{i}").rglob("*.json"))) for i in (0, 1)]
    assert counts == [3, 3]
    code, stdout, stderr = run_cli(
        [
            "results",
            "merge",
            str(tmp_path / "shard0"),
            str(tmp_path / "shard1"),
            "--out",
            str(tmp_path / "merged"),
        ],
        env=env,
    )
    assert code == 0, stderr
    assert "6 result(s) copied" in stdout
    full = sorted(p.relative_to(tmp_path / "full") for p in (tmp_path / "full").rglob("*.json"))
    merged = sorted(
        p.relative_to(tmp_path / "merged") for p in (tmp_path / "merged").rglob("*.json")
    )
    assert merged == full and len(full) == 6
    for relative in full:
        assert comparable(tmp_path / "merged" / relative) == comparable(
            tmp_path / "full" / relative
        )
    code, stdout, _ = run_cli(["results", "check", str(tmp_path / "merged")], env=env)
    assert code == 0 and "6 ok, 0 broken" in stdout


def test_failed_units_are_summarised_with_the_command_that_reruns_them(env, tmp_path):
    listing = tmp_path / "models.txt"
    listing.write_text("xecho:plain-c\n# the next one fails\nxecho:broken-c\n")
    out = tmp_path / "out"
    code, stdout, stderr = sweep(
        out, "--models-file", str(listing), "--retries", "1", "--retry-backoff", "0", env=env
    )
    assert code == 1, stderr
    lines = stdout.splitlines()
    start = lines.index("3 unit(s) failed:")
    assert lines[start + 1].startswith("  xecho-broken-c/resource-echo/alpha: ValueError: bad data")
    assert lines[start + 4] == "rerun only the failed units with:"
    assert lines[start + 5] == (
        f"  seebench eval --model xecho:broken-c --method resource-echo --tasks alpha,beta,gamma "
        f"--output {out} --retries 1 --retry-backoff 0.0"
    )
    events = [
        json.loads(line)
        for log in (out / ".seebench").glob("*.jsonl")
        for line in log.read_text().splitlines()
    ]
    ends = [e for e in events if e["event"] == "unit_end"]
    assert sorted(e["status"] for e in ends) == ["failed"] * 3 + ["ok"] * 3


def test_unknown_executor_is_one_line(env, tmp_path):
    code, _, stderr = sweep(
        tmp_path / "out", "--model", "xecho:plain-d", "--executor", "rey", env=env
    )
    assert code == 1
    assert stderr.strip().splitlines() == [
        "error: --executor 'rey': unknown executor (did you mean 'ray'?); known: local, ray"
    ]
