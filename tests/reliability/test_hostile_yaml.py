"""Alias bombs, 30,000-level nesting and non-string keys in a registered task directory: every
command still runs (no hang, no segfault) and names each bad file in one line."""

from __future__ import annotations

from tests.reliability.helpers import eval_env, make_tasks, run_cli, run_eval_cli
from tests.tasks.test_yaml_hostile import billion_laughs, deep_nesting


def test_hostile_files_beside_a_good_task(tmp_path):
    task_dir = make_tasks(tmp_path, ["good"])
    (task_dir / "bomb.yaml").write_text(billion_laughs(9))
    (task_dir / "deep.yaml").write_text(deep_nesting(30_000))
    (task_dir / "keys.yaml").write_text(
        (task_dir / "good.yaml")
        .read_text()
        .replace("name: good", "name: keys")
        .replace("format: jsonl}", "format: jsonl, options: {true: 1, sep: ','}}")
    )
    env = eval_env(task_dir, tmp_path / "home")
    run = run_eval_cli(tmp_path / "out", env, tasks="good")  # timeout=120 in the helper: no hang
    assert run.returncode == 0, run.stdout + run.stderr  # a segfault would be -11
    validate = run_cli(
        ["tasks", "validate", *(str(task_dir / f"{n}.yaml") for n in ("bomb", "deep", "keys"))], env
    )
    assert validate.returncode == 1 and "Traceback" not in validate.stderr
    problems = [line for line in validate.stdout.splitlines() if line.startswith(str(task_dir))]
    assert [p.split(":")[0].rsplit("/", 1)[-1] for p in problems] == [
        "bomb.yaml",
        "deep.yaml",
        "keys.yaml",
    ]
    assert "aliases expand" in problems[0] and "nested more than" in problems[1]
    assert "key 'true' is a boolean, not a string" in problems[2]
