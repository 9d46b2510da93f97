"""``-o`` options are checked against each method's declared options before anything runs."""

from __future__ import annotations

import pytest

from tests.cli.test_cli import run_cli, tmp_env
from tests.conftest import make_binary_task


@pytest.fixture
def env(tmp_path):
    make_binary_task(tmp_path / "tasks", "good_task")
    return tmp_env(tmp_path / "tasks"), tmp_path / "out"


@pytest.mark.parametrize(
    ("model", "option", "expected"),
    [
        (
            "tfidf-xgboost",
            "no_such_option=1",
            "error: method 'baseline': unknown option 'no_such_option'; allowed: early_stopping_metric, ",
        ),
        (
            "tfidf-xgboost",
            "max_depth=abc",
            "error: method 'baseline': option max_depth='abc' is invalid: an integer, a list of integers, ",
        ),
        ("tfidf-xgboost", "max_dept=3", "unknown option 'max_dept' (did you mean 'max_depth'?)"),
        (
            "majority",
            "shots=3",
            "error: method 'baseline': unknown option 'shots'; allowed: (none)",
        ),
    ],
)
def test_a_bad_option_is_one_line_naming_method_and_option(env, model, option, expected):
    environment, out = env
    code, stdout, stderr = run_cli(
        [
            "eval",
            "--model",
            model,
            "--tasks",
            "good_task",
            "--output",
            str(out),
            "--no-progress",
            "-o",
            option,
        ],
        env=environment,
    )
    assert code == 1
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0], stderr
    assert not list(out.rglob("*.json"))  # nothing ran


def test_a_valid_option_runs(env):
    environment, out = env
    code, _, stderr = run_cli(
        [
            "eval",
            "--model",
            "tfidf-xgboost",
            "--tasks",
            "good_task",
            "--output",
            str(out),
            "--no-progress",
            "-o",
            "max_depth=3",
            "-o",
            "min_child_weight=1",
            "-o",
            "jobs=1",
        ],
        env=environment,
    )
    assert code == 0, stderr
