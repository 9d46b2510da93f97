"""Task groups: declarations checked with one clear line, mean / weighted / nested aggregates,
the SELU and Copilot groups declared, eval printing and recording them, compare writing them."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from rich.console import Console

from seebench.errors import SeebenchError
from seebench.plugin_manager import get_registry, get_task_index
from seebench.scoring.groups import (
    RECORD_NAME,
    GroupSet,
    collect_groups,
    group_scores,
    matrix_group_scores,
    parse_groups,
    read_group_file,
    report_groups,
)

SPEC = {
    "groups": {
        "all": {"groups": ["small", "big"], "aggregate": "weighted"},
        "small": {"tasks": ["a", "b"], "metrics": {"accuracy": "weighted"}},
        "big": {"tasks": ["c"]},
    }
}
RESULTS = {
    "a": {"metrics": {"f1": 0.5, "accuracy": 0.6}, "primary_metric": "f1", "n": 100},
    "b": {"metrics": {"f1": 0.9, "accuracy": 1.0}, "primary_metric": "f1", "n": 300},
    "c": {"metrics": {"mse_inv": 0.2}, "primary_metric": "mse_inv", "n": 600},
}


def _rows(results=RESULTS):
    groups = GroupSet(parse_groups(SPEC, "spec")).check()
    return {(r.group, r.metric): r for r in group_scores(groups, results)}


def test_mean_weighted_and_nested() -> None:
    rows = _rows()
    assert rows[("small", "primary")].value == pytest.approx(0.7)  # mean of 0.5 and 0.9
    assert rows[("small", "accuracy")].value == pytest.approx((0.6 * 100 + 1.0 * 300) / 400)
    assert rows[("big", "primary")].value == pytest.approx(0.2)
    # "all" weighs each member group by its test size: small 400 items, big 600
    assert rows[("all", "primary")].value == pytest.approx((0.7 * 400 + 0.2 * 600) / 1000)
    assert [r.depth for r in rows.values()][:1] == [0]
    assert rows[("small", "primary")].depth == 1


def test_missing_members_are_counted_not_invented() -> None:
    rows = _rows({k: v for k, v in RESULTS.items() if k != "b"})
    small = rows[("small", "primary")]
    assert (small.value, small.n_tasks, small.n_members) == (0.5, 1, 2)
    assert ("big", "primary") in rows
    assert not _rows({"zzz": RESULTS["a"]})


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {"groups": {"g": {"tasks": ["a"], "aggregat": "mean"}}},
            "groups.g: unknown key(s) aggregat",
        ),
        (
            {"groups": {"g": {"tasks": ["a"], "aggregate": "median"}}},
            "groups.g.aggregate: 'median'",
        ),
        ({"groups": {"g": {}}}, "groups.g: needs 'tasks' or 'groups'"),
        ({"groups": {"g": {"tasks": "a"}}}, "groups.g.tasks: expected a list"),
        ({"groups": {"g": {"tasks": ["a", "a"]}}}, "listed twice"),
        ({"group": {}}, "expected one top-level key 'groups'"),
    ],
)
def test_bad_declarations_name_the_key(spec, message) -> None:
    with pytest.raises(SeebenchError, match="^spec: ") as error:
        parse_groups(spec, "spec")
    assert message in str(error.value)


def test_unknown_members_and_cycles() -> None:
    with pytest.raises(SeebenchError, match="unknown group 'nope'"):
        GroupSet(parse_groups({"groups": {"g": {"groups": ["nope"]}}}, "x")).check()
    cyclic = {"groups": {"g": {"groups": ["h"]}, "h": {"groups": ["g"]}}}
    with pytest.raises(SeebenchError, match="cycle"):
        GroupSet(parse_groups(cyclic, "x")).check()


def test_yaml_file(tmp_path: Path) -> None:
    path = tmp_path / "groups.yaml"
    path.write_text("groups:\n  mine:\n    tasks: [a, b]\n    aggregate: weighted\n")
    [group] = read_group_file(path)
    assert group.tasks == ("a", "b") and group.aggregations == {"primary": "weighted"}
    path.write_text("groups: [\n")
    with pytest.raises(SeebenchError, match=f"^{path}: not valid YAML"):
        read_group_file(path)


def test_selu_and_copilot_groups_cover_their_suites() -> None:
    registry = get_registry()
    groups = collect_groups(registry)
    tasks = get_task_index().summaries
    selu = {name for name, spec in tasks.items() if spec.suite == "selu"}
    assert groups.tasks_of("selu") == selu
    for group in ("selu_binary", "selu_multiclass", "selu_multilabel", "selu_regression"):
        kind = group.removeprefix("selu_")
        assert groups.tasks_of(group) == {t for t in selu if tasks[t].type == kind}
    copilot = {name for name, spec in tasks.items() if spec.suite == "copilot"}
    assert groups.tasks_of("copilot") == copilot
    languages = [g for g in groups.groups if g.startswith("copilot_") and "_" not in g[8:]]
    by_language = set().union(*(groups.tasks_of(g) for g in languages))
    assert by_language == copilot


def test_eval_prints_and_records_group_rows(tmp_path: Path) -> None:
    outcomes = [
        SimpleNamespace(
            model_id="m",
            method="baseline",
            task=task,
            status="ok",
            metrics={"f1_macro": score},
            primary_metric="f1_macro",
            n=10,
        )
        for task, score in (("bug_issue", 0.4), ("incivility", 0.6), ("sentiment", 0.3))
    ]
    console = Console(record=True, width=120)
    report_groups(get_registry(), outcomes, tmp_path, console)
    text = console.export_text()
    assert "selu_binary" in text and "0.5000" in text and "2/7" in text
    assert "selu_multiclass" in text and "0.3000" in text
    record = json.loads((tmp_path / "m" / "baseline" / RECORD_NAME).read_text())
    assert {r["group"] for r in record["groups"]} == {"selu", "selu_binary", "selu_multiclass"}


def test_leaderboard_group_rows() -> None:
    import numpy as np

    matrix = SimpleNamespace(
        models=("x", "y"),
        tasks=("a", "b", "c"),
        scores=np.array([[0.5, 0.1], [0.9, np.nan], [0.2, 0.3]]),
    )
    rows = {
        r["name"]: r["scores"]
        for r in matrix_group_scores(GroupSet(parse_groups(SPEC, "s")), matrix)
    }
    assert rows["small"] == pytest.approx([0.7, 0.1])
    # "all" is weighted: each task counts once (a score table has no test sizes)
    assert rows["all"] == pytest.approx([(0.7 * 2 + 0.2) / 3, 0.2])


def test_compare_writes_the_selu_groups(tmp_path: Path) -> None:
    import csv

    from seebench.cli.main import main

    selu_csv = Path(__file__).parents[1] / "stats" / "data" / "selu_table_vi.csv"
    out = tmp_path / "lb"
    with pytest.raises(SystemExit) as exit_info:
        main(
            [
                "compare",
                str(selu_csv),
                "--out",
                str(out),
                "--format",
                "groups",
                "--format",
                "json",
                "--format",
                "html",
                "--nsamples",
                "300",
            ]
        )
    assert exit_info.value.code == 0
    rows = {r["group"]: r for r in csv.DictReader((out / "groups.csv").open())}
    assert {"selu", "selu_binary", "selu_multiclass", "selu_multilabel", "selu_regression"} <= set(
        rows
    )
    board = json.loads((out / "leaderboard.json").read_text())
    assert {g["name"] for g in board["task_groups"]} == set(rows)
    assert '<table id="task-groups"' in (out / "index.html").read_text()
