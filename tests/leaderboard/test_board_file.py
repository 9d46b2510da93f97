"""The run file of a published leaderboard (``seebench.leaderboard.board_file``): which run
made a unit when one model and method are split into runs of different limits per task."""

from __future__ import annotations

from seebench.leaderboard.board_file import load_board

BOARD = """
runs:
  - name: loglik-full
    model: smollm2
    method: loglik
    tasks: [alpha, beta]
  - name: loglik-capped
    model: smollm2
    method: loglik
    tasks: [gamma]
    limit: 50
    capped: "--limit 50: gamma is large"
  - name: baselines
    models: [majority, random]
    tasks: [alpha, beta, gamma]
"""


def test_a_unit_belongs_to_the_run_that_lists_its_task(tmp_path):
    (tmp_path / "board.yaml").write_text(BOARD)
    board = load_board(tmp_path)
    assert board.run_of("smollm2", "loglik", "alpha").name == "loglik-full"
    assert board.run_of("smollm2", "loglik", "gamma").name == "loglik-capped"
    assert board.run_of("smollm2", "loglik", "gamma").limit == 50
    assert board.run_of("smollm2", "zero-shot", "gamma") is None
    assert board.run_of("random", "baseline", "gamma").name == "baselines"
    assert board.run_of("smollm2", "loglik", "delta") is None
    assert board.run_of("smollm2", "loglik").name == "loglik-full"  # no task: the first
