"""``seebench plugins list`` and ``seebench plugins check`` on the example plugin, on the
scaffold's and on a deliberately faulty one (``tests/plugins/faulty``)."""

from __future__ import annotations

import json

from tests.cli.test_cli import run_cli
from tests.conftest import REPO_ROOT

EXAMPLE = REPO_ROOT / "plugins" / "seebench-example"
FAULTY = REPO_ROOT / "tests" / "plugins" / "faulty"


def test_check_passes_the_example_plugin_folder(tmp_path) -> None:
    code, out, err = run_cli(
        ["plugins", "check", str(EXAMPLE)], env={"SEEBENCH_HOME": str(tmp_path)}
    )
    assert code == 0, out + err
    lines = out.strip().splitlines()
    assert lines[-1] == f"{EXAMPLE}: passed (0 to fix, 0 warnings)"
    assert any(line.startswith("OK    smoke commit_intent: majority/baseline") for line in lines)
    assert any(line.startswith("OK    tasks: 2 valid: bug_report, commit_intent") for line in lines)


def test_check_reports_every_fault_with_its_fix(tmp_path) -> None:
    code, out, err = run_cli(
        ["plugins", "check", str(FAULTY), "--json"], env={"SEEBENCH_HOME": str(tmp_path)}
    )
    assert code == 1, out + err
    report = json.loads(out)
    assert report["ok"] is False
    found: dict[tuple[str, str], dict] = {}
    for finding in report["findings"]:  # the first finding of each (level, subject)
        found.setdefault((finding["level"], finding["subject"]), finding)
    assert ("warn", "packaging") in found  # no [build-system]
    assert "no attribute 'no_such_function'" in found[("fail", "metric faulty_recall")]["message"]
    direction = found[("warn", "metric faulty_error_rate")]
    assert "higher_is_better=True" in direction["message"] and direction["fix"]
    schema = found[("fail", "method faulty-method option 'k'")]
    assert "not a valid JSON Schema" in schema["message"]
    task = found[("fail", "task file faulty_labels.yaml")]
    assert "unknown metric 'acuracy'" in task["message"]
    assert all(f["fix"] for f in report["findings"] if f["level"] == "fail")


def test_check_of_something_that_is_no_plugin_is_one_line(tmp_path) -> None:
    code, out, _ = run_cli(
        ["plugins", "check", "no-such-dist"], env={"SEEBENCH_HOME": str(tmp_path)}
    )
    assert code == 1
    assert "'no-such-dist' is not a folder, a .py file or an installed distribution" in out


def test_a_plugin_that_cannot_import_fails_the_check(tmp_path) -> None:
    module = tmp_path / "cannot_import.py"
    module.write_text("import no_such_dependency_xyz\n")
    code, out, _ = run_cli(["plugins", "check", str(module)], env={"SEEBENCH_HOME": str(tmp_path)})
    assert code == 1
    assert "FAIL  import cannot_import: ModuleNotFoundError" in out


def test_list_shows_what_each_plugin_registers(tmp_path) -> None:
    env = {
        "SEEBENCH_HOME": str(tmp_path),
        "SEEBENCH_PLUGINS": "seebench_example",
        "SEEBENCH_LOAD_PLUGINS": "",
        "PYTHONPATH": f"{REPO_ROOT}:{EXAMPLE}",
    }
    code, out, err = run_cli(["plugins", "list", "--json"], env=env)
    assert code == 0, err
    (row,) = json.loads(out)
    assert row["name"] == "seebench_example" and row["status"] == "ok"
    assert row["registers"]["metrics"] == ["balanced_accuracy"]
    assert row["registers"]["methods"] == ["keyword"]
    assert row["registers"]["tasks"] == ["bug_report", "commit_intent"]
    code, legacy, _ = run_cli(["plugins", "--json"], env=env)  # the old spelling still lists
    assert code == 0 and json.loads(legacy)[0]["name"] == "seebench_example"
