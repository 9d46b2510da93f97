"""Strict YAML loading: duplicate keys, syntax errors and include: merging."""

from __future__ import annotations

import pytest

from seebench.errors import TaskSpecError
from seebench.tasks.yaml_loader import deep_merge, format_path, load_task_document, load_yaml_strict


def test_duplicate_top_level_key_is_reported_with_both_lines(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("name: a\nsuite: s\nname: b\n")
    with pytest.raises(TaskSpecError) as info:
        load_yaml_strict(path)
    (problem,) = info.value.problems
    assert problem == f"{path}:3: name: duplicate key 'name' (first defined at line 1)"


def test_duplicate_nested_key_names_the_key_path(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("data:\n  sources:\n    - url: x\n      format: csv\n      format: tsv\n")
    with pytest.raises(TaskSpecError) as info:
        load_yaml_strict(path)
    assert "data.sources[0].format: duplicate key 'format'" in info.value.problems[0]


def test_every_duplicate_is_reported(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("a: 1\na: 2\nb: {c: 1, c: 2}\n")
    with pytest.raises(TaskSpecError) as info:
        load_yaml_strict(path)
    assert len(info.value.problems) == 2


def test_syntax_error_is_one_line_with_position(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("name: [unclosed\n")
    with pytest.raises(TaskSpecError) as info:
        load_yaml_strict(path)
    (problem,) = info.value.problems
    assert problem.startswith(f"{path}: YAML syntax error: line ")
    assert "\n" not in problem


def test_include_merges_base_and_task_wins(tmp_path):
    (tmp_path / "_base.yaml").write_text("suite: s\nversion: 1\ntags: {family: f, activity: a}\n")
    task = tmp_path / "t.yaml"
    task.write_text("include: _base.yaml\nname: t\ntags: {activity: b}\n")
    document = load_task_document(task)
    assert document == {
        "suite": "s",
        "version": 1,
        "tags": {"family": "f", "activity": "b"},
        "name": "t",
    }


def test_circular_include_is_an_error(tmp_path):
    (tmp_path / "a.yaml").write_text("include: b.yaml\n")
    (tmp_path / "b.yaml").write_text("include: a.yaml\n")
    with pytest.raises(TaskSpecError, match="circular include"):
        load_task_document(tmp_path / "a.yaml")


def test_missing_include_names_the_file(tmp_path):
    task = tmp_path / "t.yaml"
    task.write_text("include: nope.yaml\nname: t\n")
    with pytest.raises(TaskSpecError, match="included file 'nope.yaml' not found"):
        load_task_document(task)


def test_deep_merge_replaces_lists():
    assert deep_merge({"a": [1, 2], "b": {"c": 1}}, {"a": [3], "b": {"d": 2}}) == {
        "a": [3],
        "b": {"c": 1, "d": 2},
    }


def test_format_path():
    assert format_path(["data", "sources", 0, "sha256"]) == "data.sources[0].sha256"
    assert format_path([]) == "<root>"
