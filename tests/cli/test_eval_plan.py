"""``seebench eval --plan``: a dry run that says, unit by unit, what the run would do (run,
reuse, skip, not applicable) and why, and runs, writes and starts nothing."""

from __future__ import annotations

from tests.cli.test_cli import run_cli
from tests.conftest import make_binary_task


def test_the_plan_says_what_each_unit_would_do_and_runs_nothing(tmp_path):
    tasks = tmp_path / "tasks"
    for name in ("alpha", "beta", "gamma"):
        make_binary_task(tasks, name, rows=20)
    env = {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tasks),
        "SEEBENCH_HOME": str(tmp_path / "home"),
    }
    out = tmp_path / "out"
    base = ["eval", "--tasks", "tmp", "--output", str(out), "--no-progress"]
    code, _, stderr = run_cli([*base, "--model", "majority", "--tasks", "alpha"], env=env)
    assert code == 0, stderr
    (tasks / "gamma.jsonl").unlink()  # its data is not here any more
    before = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())

    code, stdout, stderr = run_cli([*base, "--model", "majority,random", "--plan"], env=env)
    assert code == 0, stderr
    rows = {line.split()[0]: line.split(None, 2)[1:] for line in stdout.splitlines()[:-1]}
    assert rows["majority/baseline/alpha"][0] == "reuse"
    assert rows["majority/baseline/beta"] == ["run", "no result yet"]
    assert rows["random/baseline/alpha"] == ["run", "no result yet"]
    for model in ("majority", "random"):
        action, why = rows[f"{model}/baseline/gamma"]
        assert action == "skip" and "gamma.jsonl" in why
    assert stdout.splitlines()[-1] == (
        "6 unit(s): 3 run, 1 reuse, 2 skip (nothing was run: --plan)"
    )
    after = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert after == before  # no result, run record or event log was written

    code, stdout, _ = run_cli([*base, "--model", "majority", "--plan", "--force"], env=env)
    assert code == 0
    assert "majority/baseline/alpha  run             --force recomputes it" in stdout
