"""The judge suite as a plugin: tasks, data import, and eval with sim: and released: models."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from seebench.cli.main import build_cli
from seebench.data.manage import import_directory
from seebench.plugin_manager import get_registry, get_task_index

SCORING = ("codetransocean_scoring", "codexglue_scoring", "complexcodeeval_scoring")
COMPARISON = tuple(name.replace("scoring", "comparison") for name in SCORING)


def test_the_six_tasks_are_registered_and_valid():
    tasks = {t.name: t for t in get_task_index().tasks.values() if t.suite == "judge"}
    assert sorted(tasks) == sorted(f"judge_{n}" for n in SCORING + COMPARISON)
    assert {t.type for t in tasks.values()} == {"judged_score", "judged_preference"}
    registry = get_registry()
    for name in ("judge_spearman", "judge_spearman_per_input", "position_bias_rate"):
        assert registry.metric(name)
    assert registry.metric("position_bias_rate").higher_is_better is False


def test_unknown_sim_and_released_models_are_one_line_errors(tmp_path):
    runner = CliRunner()
    result = runner.invoke(
        build_cli(),
        [
            "eval",
            "--model",
            "sim:cider",
            "--tasks",
            "judge_codexglue_scoring",
            "--output",
            str(tmp_path),
        ],
    )
    assert result.exit_code != 0 and "unknown similarity metric in 'sim:cider'" in str(
        result.exception
    )
    result = runner.invoke(
        build_cli(),
        [
            "eval",
            "--model",
            "released:gpt5",
            "--tasks",
            "judge_codexglue_scoring",
            "--output",
            str(tmp_path),
        ],
    )
    assert result.exit_code != 0 and "unknown released method in 'released:gpt5'" in str(
        result.exception
    )


@pytest.fixture
def imported(mirror, isolated_home) -> Path:
    judge = [t for t in get_task_index().tasks.values() if t.suite == "judge"]
    assert import_directory(mirror, judge).imported
    return isolated_home


def _eval(tmp_path: Path, model: str, tasks: str, *options: str) -> Path:
    output = tmp_path / "results"
    result = CliRunner().invoke(
        build_cli(),
        [
            "eval",
            "--model",
            model,
            "--tasks",
            tasks,
            "--output",
            str(output),
            "--no-progress",
            "--bootstrap",
            "0",
            *options,
        ],
    )
    assert result.exit_code == 0, result.output
    return output


def _samples(output: Path, task: str) -> list[dict]:
    (path,) = output.rglob(f"judge_{task}.samples.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def _result(output: Path, task: str) -> dict:
    (path,) = output.rglob(f"judge_{task}.json")
    return json.loads(path.read_text())


@pytest.mark.parametrize(
    ("model", "released_name"),
    [("sim:bleu", "bleu"), ("sim:chrf_pp", "chrf"), ("sim:rouge_l", "rouge")],
)
def test_similarity_judges_reproduce_the_released_scores(
    imported, released, tmp_path, model, released_name
):
    output = _eval(tmp_path, model, "judge_" + ",judge_".join(SCORING))
    for task in SCORING:
        ours = [s["prediction"] for s in _samples(output, task)]
        theirs = released(task).methods[released_name]
        assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) < 1e-9


def test_released_scores_give_the_study_correlations_and_honest_ones(imported, tmp_path):
    study = _eval(
        tmp_path / "study",
        "released:gpt4o",
        "judge_codetransocean_scoring",
        "-o",
        "as_released=true",
    )
    metrics = _result(study, "codetransocean_scoring")["metrics"]
    assert metrics["judge_spearman"] == pytest.approx(0.707, abs=5e-4)
    assert metrics["judge_unscored_rate"] == 0
    honest = _result(
        _eval(tmp_path / "honest", "released:gpt4o", "judge_codetransocean_scoring"),
        "codetransocean_scoring",
    )
    assert honest["metrics"]["judge_unscored_rate"] == pytest.approx(1 / 150)
    assert honest["metrics"]["judge_spearman"] == pytest.approx(0.701, abs=5e-4)


def test_released_pairwise_verdicts_show_position_bias(imported, tmp_path):
    output = _eval(tmp_path, "released:llama2", "judge_codetransocean_comparison")
    metrics = _result(output, "codetransocean_comparison")["metrics"]
    assert metrics["position_bias_rate"] == pytest.approx(0.713, abs=5e-4)
    assert metrics["preference_accuracy"] == pytest.approx(0.36, abs=5e-4)
