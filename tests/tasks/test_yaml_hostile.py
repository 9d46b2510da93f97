"""Hostile task YAML: alias bombs, deep nesting and non-string keys give one clear line, fast,
and never hide the other tasks."""

from __future__ import annotations

import re

import pytest
import yaml

from seebench.errors import TaskSpecError
from seebench.tasks.yaml_loader import MAX_DEPTH, MAX_NODES, check_bounds, load_yaml_strict
from tests.conftest import make_binary_task


def billion_laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    return "name: bomb\n" + "\n".join(lines) + "\n"


def deep_nesting(depth: int = 30_000, style: str = "flow") -> str:
    if style == "flow":
        return "name: deep\nx: " + "[" * depth + "]" * depth + "\n"
    return (
        "name: deep\n"
        + "".join("  " * i + f"k{i}:\n" for i in range(depth))
        + "  " * depth
        + "v: 1\n"
    )


@pytest.mark.parametrize("levels", [7, 8, 9])
def test_alias_bombs_are_refused_before_expansion(tmp_path, levels):
    path = tmp_path / "bomb.yaml"
    path.write_text(billion_laughs(levels))
    with pytest.raises(TaskSpecError, match=f"aliases expand to more than {MAX_NODES:,} values"):
        load_yaml_strict(path)


def test_a_few_aliases_are_still_fine(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("base: &b {x: 1, y: [1, 2]}\nother: *b\nmerged: {<<: *b, z: 3}\n")
    assert load_yaml_strict(path)["merged"] == {"x": 1, "y": [1, 2], "z": 3}


@pytest.mark.parametrize(("depth", "style"), [(30_000, "flow"), (2_000, "block")])
def test_deep_nesting_is_refused_not_a_crash(tmp_path, depth, style):
    path = tmp_path / "deep.yaml"
    path.write_text(deep_nesting(depth, style))
    with pytest.raises(TaskSpecError, match=f"nested more than {MAX_DEPTH} levels deep"):
        load_yaml_strict(path)


LOADERS = [yaml.SafeLoader] + ([yaml.CSafeLoader] if hasattr(yaml, "CSafeLoader") else [])


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
@pytest.mark.parametrize(
    ("depth", "style"),
    [
        (MAX_DEPTH + 1, "flow"),
        (999, "flow"),
        (1_001, "flow"),
        (30_000, "flow"),
        (MAX_DEPTH + 1, "block"),
        (2_000, "block"),
    ],
)
def test_the_depth_message_is_the_same_whichever_parser_runs(depth, style, loader):
    """libyaml may refuse deep nesting with its own error before seebench's bound is reached
    in event order; the message names the file, the line and seebench's limit either way."""
    with pytest.raises(TaskSpecError) as error:
        check_bounds(deep_nesting(depth, style), "deep.yaml", loader=loader)
    (problem,) = error.value.problems
    assert re.fullmatch(rf"deep\.yaml:\d+: nested more than {MAX_DEPTH} levels deep", problem)


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_nesting_within_the_bound_passes_with_either_parser(loader):
    check_bounds(deep_nesting(MAX_DEPTH - 1, "flow"), "ok.yaml", loader=loader)


@pytest.mark.parametrize("loader", LOADERS, ids=lambda loader: loader.__name__)
def test_a_syntax_error_stays_a_syntax_error(loader):
    with pytest.raises(yaml.YAMLError):
        check_bounds("name: x\nx: [1, 2\n  y: }\n", "bad.yaml", loader=loader)


def test_a_syntax_error_is_one_line_naming_file_and_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("name: x\nx: [1, 2\n  y: }\n")
    with pytest.raises(TaskSpecError) as error:
        load_yaml_strict(path)
    (problem,) = error.value.problems
    assert problem.startswith(f"{path}: YAML syntax error: line ") and "\n" not in problem


def test_non_string_keys_are_named(tmp_path):
    path = tmp_path / "keys.yaml"
    path.write_text("data:\n  options: {true: 1, sep: ','}\n  other: {1: a}\n")
    with pytest.raises(TaskSpecError) as error:
        load_yaml_strict(path)
    assert error.value.problems == [
        f"{path}:2: data.options: key 'true' is a boolean, not a string; quote it ('true')",
        f"{path}:3: data.other: key '1' is an integer, not a string; quote it ('1')",
    ]


def test_tasks_list_marks_hostile_files_broken_and_lists_the_rest(tmp_path, monkeypatch, capsys):
    from seebench.cli.main import main

    tasks = tmp_path / "tasks"
    make_binary_task(tasks, "good_task")
    (tasks / "bomb.yaml").write_text(billion_laughs(9))
    (tasks / "deep.yaml").write_text(deep_nesting())
    keys = make_binary_task(tasks, "keys_task")
    keys.write_text(
        keys.read_text().replace("format: jsonl}", "format: jsonl, options: {true: 1, sep: ','}}")
    )
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    with pytest.raises(SystemExit) as exit_info:
        main(["tasks", "list", "--suite", "tmp"])
    assert exit_info.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.split()[:2] == ["tmp", "good_task"] and "BROKEN" not in line for line in lines)
    broken = {line.split()[1]: line for line in lines if "BROKEN" in line}
    assert sorted(broken) == ["bomb", "deep", "keys_task"]
    assert "aliases expand" in broken["bomb"] and "nested more than" in broken["deep"]
    assert "key 'true' is a boolean" in broken["keys_task"]
