"""``seebench compare`` on a sweep: one board per suite where models overlap, an overall board
on the shared tasks, and a note for everything left out."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from seebench.cli.main import main
from seebench.leaderboard.boards import largest_block, plan_boards
from seebench.stats.matrix import IncompleteMatrixError, ScoreMatrix

NAN = float("nan")


def _matrix(models, tasks, rows, lower=()) -> ScoreMatrix:
    return ScoreMatrix(
        models=tuple(models),
        tasks=tuple(tasks),
        scores=np.array(rows, dtype=float),
        task_types=("binary",) * len(tasks),
        task_families=("f",) * len(tasks),
    ).with_lower_is_better(lower)


def test_largest_block_drops_the_model_that_blocks_most_tasks() -> None:
    rows = [[0.1, 0.2, 0.3], [0.2, 0.3, NAN], [0.4, 0.1, NAN], [0.5, 0.6, 0.1]]
    block = largest_block(_matrix("abc", ["t1", "t2", "t3", "t4"], rows))
    assert block.models == ("a", "b") and block.tasks == ("t1", "t2", "t3", "t4")


def test_one_board_per_suite_and_an_overall_board() -> None:
    tasks = ["s1", "s2", "s3", "s4", "c1", "c2", "c3", "c4"]
    rows = [
        [0.5, 0.6, NAN],
        [0.1, 0.2, NAN],
        [0.4, 0.7, NAN],
        [0.3, 0.2, NAN],
        [NAN, 0.1, 0.9],
        [NAN, 0.2, 0.8],
        [NAN, 0.3, 0.7],
        [NAN, 0.4, NAN],
    ]
    suites = {t: "selu" if t.startswith("s") else "copilot" for t in tasks}
    plan = plan_boards(_matrix(["majority", "random", "null"], tasks, rows), suites)
    boards = {b.name: b for b in plan.boards}
    assert boards["selu"].matrix.models == ("majority", "random")
    assert boards["copilot"].matrix.models == ("random", "null")
    assert boards["copilot"].matrix.tasks == ("c1", "c2", "c3")
    assert any(line.startswith("task c4: no score of null") for line in boards["copilot"].left_out)
    assert boards[""].matrix.models == ("majority", "random")  # the overall board
    assert boards[""].matrix.tasks == ("s1", "s2", "s3", "s4")
    with pytest.raises(IncompleteMatrixError, match="suite copilot"):
        plan_boards(_matrix(["majority", "random", "null"], tasks, rows), suites, "error")


def test_a_suite_too_small_for_a_board_is_named() -> None:
    plan = plan_boards(_matrix("ab", ["x1", "x2"], [[0.1, 0.2], [0.3, 0.4]]), {})
    assert plan.boards == []
    assert "a board needs at least 2 models" in plan.skipped[0]


def test_lower_is_better_tasks_get_their_own_board() -> None:
    rows = [[0.1, 0.2], [0.3, 0.1], [0.2, 0.5], [1.0, 2.0], [3.0, 1.0], [2.0, 2.5]]
    tasks = ["h1", "h2", "h3", "l1", "l2", "l3"]
    plan = plan_boards(_matrix("ab", tasks, rows, lower={"l1", "l2", "l3"}), {})
    assert [b.name for b in plan.boards] == ["", "lower-is-better"]  # OUT/ and a subfolder


def _result(
    root: Path,
    model: str,
    task: str,
    suite: str,
    task_type: str,
    score: float,
    unscored: int = 2,
    limit: int | None = None,
) -> None:
    unit = root / model / "baseline"
    unit.mkdir(parents=True, exist_ok=True)
    result = {
        "schema_version": 1,
        "status": "ok",
        "model": {"id": model},
        "method": "baseline",
        "task": {"name": task, "suite": suite, "type": task_type, "version": 1, "tags": {}},
        "primary_metric": "accuracy",
        "metrics": {"accuracy": score},
        "n": 10,
        "unscored": {"count": unscored},
        "run": {"limit": limit, "config": {}},
    }
    (unit / f"{task}.json").write_text(json.dumps(result))


def _run(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def test_compare_a_sweep_directory(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    results = tmp_path / "results"
    rng = np.random.default_rng(1)
    for model in ("majority", "random"):
        for index in range(4):
            _result(results, model, f"sel{index}", "selu", "binary", rng.random())
    for model in ("null", "random"):
        for index in range(3):
            _result(results, model, f"cop{index}", "copilot", "copilot_fix", rng.random())
    _result(results, "null", "cop3", "copilot", "copilot_fix", 0.5)
    out = tmp_path / "lb"
    assert _run(["compare", str(results), "--out", str(out), "--format", "json",
                 "--nsamples", "300"]) == 0  # fmt: skip
    err = capsys.readouterr().err
    assert (out / "selu" / "leaderboard.json").is_file()
    assert (out / "copilot" / "leaderboard.json").is_file()
    overall = json.loads((out / "leaderboard.json").read_text())
    assert {r["model"] for r in overall["ranking"]} == {"majority/baseline", "random/baseline"}
    assert "left out task cop3: no score of random/baseline" in err
    assert overall["counts"]["random/baseline"]["sel0"] == {"scored": 8, "excluded": 2}
    assert "task cop3: no score of random/baseline" in " ".join(
        json.loads((out / "copilot" / "leaderboard.json").read_text())["left_out"]
    )

    assert _run(["compare", str(results), "--out", str(out), "--missing", "error"]) == 1
    assert "--missing overlap" in capsys.readouterr().err


def test_too_few_tasks_says_what_a_board_needs(tmp_path, capsys) -> None:
    results = tmp_path / "results"
    for model in ("a", "b"):
        for index in range(2):
            _result(results, model, f"fix{index}", "copilot", "copilot_fix", 0.1 * index)
    assert _run(["compare", str(results), "--out", str(tmp_path / "lb")]) == 1
    err = capsys.readouterr().err
    assert "at least 2 models with a score on each of at least 3 tasks" in err
    assert "copilot_fix" in err


def test_tables_show_scored_and_unscored_counts(tmp_path: Path) -> None:
    results = tmp_path / "results"
    for model, shift in (("a", 0.0), ("b", 0.1)):
        for index in range(3):
            _result(results, model, f"t{index}", "selu", "binary", 0.2 * index + shift)
    out = tmp_path / "lb"
    args = ["compare", str(results), "--out", str(out), "--nsamples", "300"]
    formats = ["--format", "markdown", "--format", "per-task", "--format", "csv"]
    assert _run([*args, *formats, "--format", "html"]) == 0
    assert '<th data-type="number">Unscored</th>' in (out / "index.html").read_text()
    header, first = (out / "leaderboard.csv").read_text().splitlines()[:2]
    assert header.endswith(",scored,unscored") and first.endswith(",24,6")
    ranking = (out / "leaderboard.md").read_text()
    assert "| Scored | Unscored |" in ranking and "| 24 | 6 |" in ranking
    assert "infra_error" in ranking  # the column's footnote says what it counts
    assert "(n 8, 2 unscored)" in (out / "per_task.md").read_text()


def test_the_unscored_column_is_shown_only_where_some_are(tmp_path: Path) -> None:
    results = tmp_path / "results"
    for model, shift in (("a", 0.0), ("b", 0.1)):
        for index in range(3):
            _result(results, model, f"t{index}", "selu", "binary", 0.2 * index + shift, unscored=0)
    out = tmp_path / "lb"
    args = ["compare", str(results), "--out", str(out), "--nsamples", "300"]
    assert _run([*args, "--format", "markdown", "--format", "csv", "--format", "html"]) == 0
    ranking = (out / "leaderboard.md").read_text()
    assert "| Scored |" in ranking and "Unscored" not in ranking
    assert (out / "leaderboard.csv").read_text().splitlines()[0].endswith(",scored")
    assert "Unscored" not in (out / "index.html").read_text()


def _limited_sweep(results: Path) -> None:
    for model, shift in (("a", 0.0), ("b", 0.1), ("c", 0.05)):
        for index in range(3):
            limit = 20 if model == "c" else None
            _result(results, model, f"t{index}", "selu", "binary", 0.2 * index + shift, 0, limit)


def test_limited_runs_left_out_are_named_in_every_table(tmp_path: Path, capsys) -> None:
    results, out = tmp_path / "results", tmp_path / "lb"
    _limited_sweep(results)
    args = ["compare", str(results), "--out", str(out), "--nsamples", "300"]
    assert _run(args) == 0
    assert "left out c/baseline on t0 (--limit 20)" in capsys.readouterr().err
    board = json.loads((out / "leaderboard.json").read_text())
    assert {r["model"] for r in board["ranking"]} == {"a/baseline", "b/baseline"}
    assert any("c/baseline on t0 (--limit 20)" in line for line in board["left_out"])
    assert "c/baseline on t2 (--limit 20)" in (out / "leaderboard.md").read_text()
    assert "c/baseline on t2 (--limit 20)" in (out / "index.html").read_text()


def test_limited_runs_ranked_on_request_are_marked_in_every_table(tmp_path: Path) -> None:
    results, out = tmp_path / "results", tmp_path / "lb"
    _limited_sweep(results)
    args = ["compare", str(results), "--out", str(out), "--nsamples", "300", "--include-limited"]
    assert _run(args) == 0
    board = json.loads((out / "leaderboard.json").read_text())
    assert board["limited"] == {"c/baseline": {"t0": 20, "t1": 20, "t2": 20}}
    ranking = (out / "leaderboard.md").read_text()
    row = next(line for line in ranking.splitlines() if "| c/baseline |" in line)
    assert "| first 20 |" in row and "| Items |" in ranking
    assert "--limit N run" in ranking  # the footnote says what 'first N' means
    full = next(line for line in ranking.splitlines() if "| a/baseline |" in line)
    assert "| all |" in full
    rows = {r.split(",")[1]: r for r in (out / "leaderboard.csv").read_text().splitlines()}
    assert "first 20" in rows["c/baseline"] and ",all," in rows["a/baseline"] + ","
    assert r"c/baseline$^\dagger$" in (out / "leaderboard.tex").read_text()
    assert "first 20" in (out / "index.html").read_text()
