"""``seebench judge-agreement`` over result files of judging tasks."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from seebench.cli.main import build_cli
from seebench.data.manage import import_directory
from seebench.plugin_manager import get_task_index


def _run(*args: str):
    return CliRunner().invoke(build_cli(), list(args))


def test_no_judging_results_is_one_clear_error(tmp_path):
    result = _run("judge-agreement", str(tmp_path), "--out", str(tmp_path / "out"))
    assert result.exit_code != 0
    assert "no results of judging tasks found" in (result.output + str(result.exception))


def test_agreement_report_from_released_results(mirror, isolated_home, tmp_path):
    judge = [t for t in get_task_index().tasks.values() if t.suite == "judge"]
    assert import_directory(mirror, judge).imported
    results = tmp_path / "results"
    for task in ("judge_complexcodeeval_scoring", "judge_codetransocean_comparison"):
        run = _run(
            "eval",
            "--model",
            "released:gpt4o",
            "--tasks",
            task,
            "--output",
            str(results),
            "--no-progress",
            "--bootstrap",
            "0",
        )
        assert run.exit_code == 0, run.output
    out = tmp_path / "report"
    result = _run("judge-agreement", str(results), "--out", str(out), "--bootstrap", "100")
    assert result.exit_code == 0, result.output
    rows = {r["task"]: r for r in json.loads((out / "judge_agreement.json").read_text())}
    scoring = rows["judge_complexcodeeval_scoring"]
    assert scoring["spearman_pooled"] == pytest.approx(0.547, abs=5e-4)
    assert scoring["spearman_per_input"] == pytest.approx(0.350, abs=5e-4)
    low, high = scoring["spearman_pooled_ci"]
    assert low < 0.547 < high
    assert rows["judge_codetransocean_comparison"]["position_bias_rate"] == pytest.approx(
        0.067, abs=5e-4
    )
    assert (out / "judge_agreement.csv").is_file()
    assert "## Comparison tasks" in (out / "judge_agreement.md").read_text()


def test_a_broken_samples_file_is_a_warning_naming_it(mirror, isolated_home, tmp_path):
    judge = [t for t in get_task_index().tasks.values() if t.suite == "judge"]
    import_directory(mirror, judge)
    results = tmp_path / "results"
    for model in ("released:gpt4o", "released:llama2"):
        run = _run(
            "eval",
            "--model",
            model,
            "--tasks",
            "judge_codexglue_scoring",
            "--output",
            str(results),
            "--no-progress",
            "--bootstrap",
            "0",
        )
        assert run.exit_code == 0, run.output
    (samples,) = (results / "released-llama2").rglob("*.samples.jsonl")
    samples.write_text("{not json\n")
    result = _run(
        "judge-agreement", str(results), "--out", str(tmp_path / "out"), "--bootstrap", "0"
    )
    assert result.exit_code == 0
    assert f"{samples}:1: not a judging sample" in result.output
    assert len(json.loads((tmp_path / "out" / "judge_agreement.json").read_text())) == 1
