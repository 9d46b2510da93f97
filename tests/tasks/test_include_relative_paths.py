"""Relative data paths in an ``include:``d file resolve against the included file."""

from __future__ import annotations

from pathlib import Path

from seebench.tasks.yaml_loader import load_task_document


def test_a_relative_path_of_an_included_file_is_rebased(tmp_path: Path) -> None:
    tasks = tmp_path / "suite" / "tasks"
    shared = tasks / "shared"  # includes stay inside the task's folder (tests/reliability)
    shared.mkdir(parents=True)
    (shared / "rows.jsonl").write_text('{"a": 1}\n')
    (shared / "_base.yaml").write_text(
        "data:\n"
        "  sources:\n"
        "    - {path: rows.jsonl, format: jsonl}\n"
        "    - {path: /abs/other.jsonl, format: jsonl}\n"
        "split: {split_file: {path: splits.csv}}\n"
    )
    (tasks / "t.yaml").write_text("include: shared/_base.yaml\nname: t\n")
    document = load_task_document(tasks / "t.yaml")
    first, second = document["data"]["sources"]
    assert (tasks / first["path"]).resolve() == (shared / "rows.jsonl").resolve()
    assert second["path"] == "/abs/other.jsonl"
    assert (tasks / document["split"]["split_file"]["path"]).resolve() == (
        shared / "splits.csv"
    ).resolve()


def test_paths_the_including_file_sets_stay_its_own(tmp_path: Path) -> None:
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "_base.yaml").write_text("data: {sources: [{path: a.jsonl}]}\n")
    (tmp_path / "t.yaml").write_text(
        "include: base/_base.yaml\ndata: {sources: [{path: mine.jsonl}]}\n"
    )
    assert load_task_document(tmp_path / "t.yaml")["data"]["sources"] == [{"path": "mine.jsonl"}]
    (tmp_path / "u.yaml").write_text("include: base/_base.yaml\n")
    assert load_task_document(tmp_path / "u.yaml")["data"]["sources"] == [{"path": "base/a.jsonl"}]
