"""``--include-path DIR``: a directory of task YAMLs used without writing a plugin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.cli.main import main
from seebench.errors import SeebenchError
from seebench.plugin_manager import get_registry, get_task_index
from seebench.tasks.index import INCLUDE_PATH_ORIGIN, build_task_index, set_include_paths
from tests.conftest import make_binary_task, write_task


def run(args: list[str]) -> int:
    try:
        main(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


@pytest.fixture
def included(tmp_path: Path) -> Path:
    directory = tmp_path / "my_tasks"
    make_binary_task(directory, "local_bugs")
    return directory


def test_included_tasks_join_the_registered_ones(included: Path) -> None:
    index = build_task_index(get_registry(), [included])
    assert index.tasks["local_bugs"].suite == "tmp"
    assert index.origins["local_bugs"] == INCLUDE_PATH_ORIGIN
    assert "sentiment" in index.tasks  # the built-in suites are still there


def test_set_include_paths_reaches_the_process_wide_index(included: Path) -> None:
    assert "local_bugs" not in get_task_index().tasks
    set_include_paths([included])
    assert "local_bugs" in get_task_index().tasks
    set_include_paths(())
    assert "local_bugs" not in get_task_index().tasks


def test_a_path_that_is_not_a_directory_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(SeebenchError, match=r"^--include-path .*nope: not a directory$"):
        set_include_paths([tmp_path / "nope"])


def test_a_name_clash_with_a_registered_task_is_listed_as_broken(tmp_path: Path) -> None:
    make_binary_task(tmp_path, "sentiment")
    index = build_task_index(get_registry(), [tmp_path])
    (clash,) = [b for b in index.broken if b.name == "sentiment"]
    assert clash.plugin == INCLUDE_PATH_ORIGIN and "already defined" in clash.problems[0]
    assert index.origins["sentiment"] == "seebench.builtin.selu"


def test_tasks_list_and_validate(included: Path, capsys: pytest.CaptureFixture) -> None:
    assert run(["tasks", "list", "--json", "--include-path", str(included)]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert (
        rows["local_bugs"]["plugin"] == INCLUDE_PATH_ORIGIN and rows["local_bugs"]["status"] == "ok"
    )
    assert run(["tasks", "validate", "--include-path", str(included)]) == 0
    write_task(included, "broken_one", "name: broken_one\nsuite: tmp\n")
    assert run(["tasks", "validate", "--include-path", str(included)]) == 1
    assert "broken_one.yaml" in capsys.readouterr().out


def test_eval_runs_an_included_task(included: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "results"
    args = [
        "eval",
        "--model",
        "majority",
        "--tasks",
        "local_bugs",
        "--output",
        str(out),
        "--no-progress",
    ]
    assert run(args) == 1  # unknown task without the include path
    assert "unknown task 'local_bugs'" in capsys.readouterr().err
    assert run([*args, "--include-path", str(included)]) == 0
    result = json.loads(next(out.rglob("local_bugs.json")).read_text())
    assert result["status"] == "ok" and result["task"]["name"] == "local_bugs"


def test_data_status_sees_included_tasks(included: Path, capsys: pytest.CaptureFixture) -> None:
    assert run(["data", "status", "local_bugs", "--include-path", str(included)]) == 0
    assert "local_bugs" in capsys.readouterr().out
