"""``seebench view`` on the command line: export a site (results folder and a score CSV)."""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.cli.main import main
from tests.view.conftest import make_results

SELU_CSV = Path(__file__).parents[1] / "stats" / "data" / "selu_table_vi.csv"


def run(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    return exit_info.value.code


def test_export_of_results_and_the_selu_paper_table(tmp_path: Path, capsys) -> None:
    results = make_results(tmp_path / "results")
    site = tmp_path / "site"
    assert run(["view", str(results), str(SELU_CSV), "--export", str(site)]) == 0
    out = capsys.readouterr()
    assert "11 unit(s) in 1 folder(s); 1 score CSV(s)" in out.err
    assert f"open {site / 'index.html'}" in out.out
    board = (site / "leaderboard.html").read_text()
    assert "RoBERTa" in board and 'id="group-scores"' in board  # the paper's models, SELU groups
    assert (site / "index.html").exists()


def test_bad_inputs_are_one_line_errors(tmp_path: Path, capsys) -> None:
    assert run(["view", str(tmp_path / "nope")]) == 1
    assert "nope: no such results folder or CSV file" in capsys.readouterr().err
    (tmp_path / "x.txt").write_text("x")
    assert run(["view", str(tmp_path / "x.txt")]) == 1
    assert "expected a results folder or a .csv file" in capsys.readouterr().err


def test_the_compare_leaderboard_links_into_the_site(tmp_path: Path, capsys) -> None:
    import shutil

    results = make_results(tmp_path / "results")
    for single in ("scenario", "sampling"):  # one task each: the leaderboard ranks the others
        shutil.rmtree(results / "alpha" / single)
    site, board = tmp_path / "site", tmp_path / "board"
    assert run(["view", str(results), "--export", str(site)]) == 0
    assert (
        run(
            [
                "compare",
                str(results),
                "--out",
                str(board),
                "--format",
                "html",
                "--nsamples",
                "1000",
                "--view-site",
                "../site",
            ]
        )
        == 0
    )
    page = (board / "index.html").read_text()
    assert '<a href="../site/task/sentiment.html">sentiment</a>' in page
    assert (board / "../site/task/sentiment.html").resolve().exists()


def test_a_groups_file(tmp_path: Path, capsys) -> None:
    results = make_results(tmp_path / "results")
    groups = tmp_path / "groups.yaml"
    groups.write_text(
        "groups:\n  mine:\n    tasks: [issue_type, sentiment]\n    aggregate: weighted\n"
    )
    assert (
        run(["view", str(results), "--groups", str(groups), "--export", str(tmp_path / "s")]) == 0
    )
    assert ">mine</td>" in (tmp_path / "s" / "index.html").read_text()
    groups.write_text("groups:\n  mine:\n    task: [issue_type]\n")
    assert (
        run(["view", str(results), "--groups", str(groups), "--export", str(tmp_path / "t")]) == 1
    )
    assert f"error: {groups}: groups.mine: unknown key(s) task" in capsys.readouterr().err
