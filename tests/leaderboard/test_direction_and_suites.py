"""compare ranks in each metric's direction and takes suite metadata from the registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.cli.main import main
from seebench.errors import PluginError
from seebench.leaderboard.inputs import compared_tasks, read_inputs
from seebench.plugin_manager import build_registry, create_plugin_manager, get_registry
from seebench.stats import Settings, compare_models
from tests.leaderboard.builders import DATA, SELU_CSV, write_result_dir
from tests.plugins import good_plugin

ERRORS = {
    "best": [0.10, 0.12, 0.20, 0.15, 0.11],
    "middle": [0.30, 0.25, 0.35, 0.28, 0.33],
    "worst": [0.60, 0.52, 0.70, 0.66, 0.58],
}


def run(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def score_csv(path: Path, metric: str, task_type: str = "regression") -> Path:
    lines = ["model,task,task_type,metric,score"]
    for model, scores in ERRORS.items():
        lines += [f"{model},t{i},{task_type},{metric},{s}" for i, s in enumerate(scores)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_lower_is_better_metric_ranks_ascending(tmp_path: Path) -> None:
    matrix = read_inputs([score_csv(tmp_path / "mae.csv", "mae")]).to_matrix(get_registry())
    assert not matrix.higher_is_better
    report = compare_models(matrix, Settings(nsamples=2000))
    assert report.models == ("best", "middle", "worst")
    assert not report.higher_is_better
    assert report.rows[0].center < report.rows[1].center < report.rows[2].center
    assert all(row.effect_size > 0 for row in report.rows[1:])  # the top model is better
    assert report.posteriors.p_better[0, 2] > 0.95
    assert report.to_dict()["higher_is_better"] is False


def test_the_same_scores_of_a_higher_is_better_metric_rank_descending(tmp_path: Path) -> None:
    matrix = read_inputs([score_csv(tmp_path / "f1.csv", "f1_macro", "binary")]).to_matrix(
        get_registry()
    )
    report = compare_models(matrix, Settings(nsamples=2000))
    assert report.models == ("worst", "middle", "best")
    assert report.higher_is_better and report.posteriors.p_better[0, 2] > 0.95


def write_error_results(root: Path, metric: str, recorded: bool | None = None) -> Path:
    """Result files of three models on five tasks scored with ``metric`` (ERRORS' values)."""
    for model, scores in ERRORS.items():
        unit = root / model / "baseline"
        unit.mkdir(parents=True)
        for i, score in enumerate(scores):
            result = {
                "schema_version": 1,
                "status": "ok",
                "model": {"id": model},
                "method": "baseline",
                "task": {"name": f"t{i}", "suite": "mine", "type": "regression"},
                "primary_metric": metric,
                "metrics": {metric: score},
            }
            if recorded is not None:
                result["metric_info"] = {metric: {"higher_is_better": recorded}}
            (unit / f"t{i}.json").write_text(json.dumps(result))
    return root


def test_result_files_carry_their_metric(tmp_path: Path) -> None:
    results = write_error_results(tmp_path / "results", "mae")
    out = tmp_path / "lb"
    args = ["compare", str(results), "--out", str(out), "--nsamples", "500", "--format", "json"]
    assert run([*args, "--format", "markdown"]) == 0
    data = json.loads((out / "leaderboard.json").read_text())
    models = ["best/baseline", "middle/baseline", "worst/baseline"]
    assert [r["model"] for r in data["ranking"]] == models
    assert "lower scores are better" in (out / "leaderboard.md").read_text()


def test_the_direction_a_result_records_wins(tmp_path: Path) -> None:
    """A result scored by a plugin metric (not installed here) records its direction."""
    results = write_error_results(tmp_path / "results", "plugin_error_rate", recorded=False)
    assert not read_inputs([results]).to_matrix(get_registry()).higher_is_better
    recorded_higher = write_error_results(tmp_path / "other", "mae", recorded=True)
    assert read_inputs([recorded_higher]).to_matrix(get_registry()).higher_is_better


def test_tasks_in_opposite_directions_are_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    mixed = tmp_path / "mixed.csv"
    rows = score_csv(tmp_path / "a.csv", "mae").read_text().splitlines()
    mixed.write_text(
        "\n".join(rows + [r.replace(",t", ",u").replace("mae", "f1_macro") for r in rows[1:]])
    )
    out = tmp_path / "lb"
    assert run(["compare", str(mixed), "--out", str(out), "--nsamples", "200"]) == 0
    assert (out / "leaderboard.json").is_file()  # by default each direction gets its board
    assert (out / "lower-is-better" / "leaderboard.json").is_file()
    capsys.readouterr()
    one_board = ["--group-by", "none"]
    assert run(["compare", str(mixed), "--out", str(out), "--nsamples", "200", *one_board]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "opposite directions" in err and "'t0': lower is better" in err


def test_selu_results_rank_the_suites_types_and_say_what_they_leave_out(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    results = write_result_dir(tmp_path / "results")
    write_result_dir(results, DATA / "selu_table_vi_ner_mlm.csv")
    out = tmp_path / "lb"
    assert (
        run(["compare", str(results), "--out", str(out), "--nsamples", "300", "--format", "json"])
        == 0
    )
    err = capsys.readouterr().err
    assert "not ranking se_entities: type ner is not among suite selu's compared types" in err
    data = json.loads((out / "leaderboard.json").read_text())
    assert len(data["tasks"]) == 20 and "ner" not in {t["type"] for t in data["tasks"]}
    args = [
        "compare",
        str(results),
        "--out",
        str(out),
        "--nsamples",
        "300",
        "--format",
        "json",
        "--include-type",
        "ner",
        "--include-type",
        "mlm",
    ]
    assert run([*args, "--missing", "error"]) == 1  # 15 of 28 models lack NER/MLM scores
    assert "--missing" in capsys.readouterr().err
    assert run(args) == 0  # by default the largest block with every score is ranked
    assert "left out task se_entities: no score of" in capsys.readouterr().err
    assert run([*args, "--missing", "drop-models"]) == 0
    data = json.loads((out / "leaderboard.json").read_text())
    assert {"ner", "mlm"} <= {t["type"] for t in data["tasks"]}


def test_fewer_than_three_tasks_is_explained(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    two = tmp_path / "two.csv"
    lines = SELU_CSV.read_text().splitlines()
    two.write_text(
        "\n".join(
            [lines[0], *(x for x in lines[1:] if x.split(",")[1] in ("bug_issue", "sentiment"))]
        )
    )
    assert run(["compare", str(two), "--out", str(tmp_path / "lb"), "--nsamples", "200"]) == 1
    err = capsys.readouterr().err
    assert "at least 2 models with a score on each of at least 3 tasks" in err
    assert "28 model(s) share 2 task(s)" in err
    assert "task types ranked: binary, multiclass" in err


def test_a_plugin_suite_supplies_families_groups_and_compared_types() -> None:
    registry = build_registry(create_plugin_manager(((good_plugin, "good"),), entry_points=False))
    assert registry.suite("good-suite").plugin == "good"
    table = read_inputs([SELU_CSV])
    table.records += [("echo", "alpha", 0.5), ("echo", "beta", 0.5)]
    table.task_types.update({"alpha": "multiclass", "beta": "multiclass"})
    kept, dropped = compared_tasks(table, registry)
    assert "alpha" in dropped and "good-suite" in dropped["alpha"]  # good-suite ranks binary only
    assert "beta" in kept  # in no suite: every type is ranked
    assert "alpha" in compared_tasks(table, registry, include_types=["multi-class"])[0]
    matrix = table.to_matrix(registry)
    assert matrix.task_families[matrix.tasks.index("alpha")] == "fam"
    assert matrix.model_groups["echo"] == "testers"
    assert matrix.model_groups["BERT base"] == "generalist"  # from the SELU suite


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"compare_task_types": ("binary", "ordinal")},
            r"suite 'x' compares unknown task type\(s\) 'ordinal'",
        ),
        ({"task_families": ["a"]}, r"suite 'x': task_families must map names"),
        ({"model_groups": {"m": 1}}, r"suite 'x': model_groups must map names"),
    ],
)
def test_bad_suite_registrations_name_the_plugin(kwargs: dict, message: str) -> None:
    class BadSuite:
        @staticmethod
        @good_plugin.hookimpl
        def register_suites(register):
            register("x", **kwargs)

    pm = create_plugin_manager(((BadSuite, "bad"),), entry_points=False)
    with pytest.raises(PluginError, match=rf"plugin 'bad'.*{message}"):
        build_registry(pm)


def test_a_suite_name_is_registered_once() -> None:
    class Clash:
        @staticmethod
        @good_plugin.hookimpl
        def register_suites(register):
            register("selu")

    pm = create_plugin_manager(((Clash, "clash"),), entry_points=False)
    with pytest.raises(
        PluginError, match="suite 'selu', already registered by 'seebench.builtin.selu'"
    ):
        build_registry(pm)


def test_an_unknown_metric_counts_as_higher_is_better(tmp_path: Path) -> None:
    matrix = read_inputs([score_csv(tmp_path / "x.csv", "plugin_metric_not_installed")]).to_matrix(
        get_registry()
    )
    assert matrix.higher_is_better
