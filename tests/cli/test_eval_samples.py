"""``eval --samples``: only the chosen test items, a partial result (recorded as such, never
reused as a full one), and never written over a full result."""

from __future__ import annotations

import json

from tests.cli.test_cli import run_cli, tmp_env
from tests.conftest import make_binary_task


def _eval(environment, out, *extra):
    args = ["eval", "--model", "majority", "--tasks", "good_task", "--output", str(out)]
    return run_cli([*args, "--no-progress", *extra], env=environment)


def _result(out):
    [path] = [p for p in out.rglob("good_task.json")]
    return json.loads(path.read_text()), path


def test_samples_evaluates_the_chosen_items_as_a_partial_result(tmp_path):
    make_binary_task(tmp_path / "tasks", "good_task")
    environment = tmp_env(tmp_path / "tasks")
    full_out = tmp_path / "full"
    code, _, stderr = _eval(environment, full_out)
    assert code == 0, stderr
    full, full_path = _result(full_out)
    ids = [json.loads(line)["id"] for line in full_path.with_suffix(".samples.jsonl").open()]
    chosen = [ids[3], ids[0]]

    code, stdout, stderr = _eval(environment, full_out, "--samples", ",".join(chosen), "--plan")
    assert code == 0, stderr
    [line] = [x for x in stdout.splitlines() if "good_task" in x]
    assert " skip " in line and "a --samples run would replace" in line
    code, _, stderr = _eval(environment, full_out, "--samples", ",".join(chosen))
    assert code == 0, stderr
    assert "holds a full result, which a --samples run would replace" in stderr
    assert _result(full_out)[0] == full  # the full result is kept as it was

    ids_file = tmp_path / "ids.txt"
    ids_file.write_text(f"# two items\n{chosen[0]}\n\n{chosen[1]}\n")
    part_out = tmp_path / "part"
    code, _, stderr = _eval(environment, part_out, "--samples", str(ids_file))
    assert code == 0, stderr
    part, part_path = _result(part_out)
    assert part["status"] == "ok" and part["n"] == 2
    assert part["run"]["samples"] == sorted(chosen)
    assert part["run"]["config_hash"] != full["run"]["config_hash"]  # never taken as full
    lines = part_path.with_suffix(".samples.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [ids[0], ids[3]]  # in test order

    code, _, stderr = _eval(environment, part_out)  # a full run replaces the partial one
    assert code == 0, stderr
    assert _result(part_out)[0]["n"] == full["n"]


def test_samples_with_limit_or_unknown_ids_is_one_line(tmp_path):
    make_binary_task(tmp_path / "tasks", "good_task")
    environment = tmp_env(tmp_path / "tasks")
    out = tmp_path / "out"
    code, _, stderr = _eval(environment, out, "--samples", "a,b", "--limit", "3")
    assert code != 0 and stderr.strip() == "error: --samples and --limit: give one of them"
    code, _, stderr = _eval(environment, out, "--samples", " , ")
    assert code != 0 and "--samples ' , ': no sample ids" in stderr
    code, _, stderr = _eval(environment, out, "--samples", "no-such-id")
    assert "its test split has none of --samples no-such-id" in stderr, stderr
    result, _ = _result(out)
    assert result["status"] == "skipped"
