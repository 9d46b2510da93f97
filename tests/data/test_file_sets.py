"""File-set sources: a shipped checksum list whose files come from the data cache."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from seebench.data.dataset import read_rows
from seebench.data.file_sets import read_file_list
from seebench.data.manage import import_directory, task_status
from seebench.errors import DataMissingError, SeebenchError
from seebench.plugin_manager import get_registry
from seebench.tasks.validate import load_task
from tests.conftest import write_task

BODY = """
    name: cases
    suite: ext
    version: 1
    type: binary
    labels:
      - {name: bug, value: 1}
      - {name: other, value: 0}
    metrics: [accuracy]
    data:
      sources:
        - files: cases.sha256
          url: https://example.org/upstream/tree/0123abc
          format: json_files
          options: {pattern: "cases/*.json"}
      input: title
      target: bug
"""


def _upstream(root: Path) -> dict[str, bytes]:
    contents = {
        "cases/case-1.json": json.dumps({"title": "crash on save", "bug": 1}).encode(),
        "cases/case-2.json": json.dumps({"title": "add dark mode", "bug": 0}).encode(),
        "notes/readme.txt": b"not a case\n",
    }
    for name, data in contents.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return contents


def _task(tmp_path: Path, contents: dict[str, bytes]) -> Path:
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    lines = [f"{hashlib.sha256(data).hexdigest()}  {name}" for name, data in contents.items()]
    (tasks / "cases.sha256").write_text("\n".join(lines) + "\n")
    return write_task(tasks, "cases", BODY)


def test_members_are_imported_by_checksum_and_read_as_rows(tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    upstream = tmp_path / "upstream"
    contents = _upstream(upstream)
    task = load_task(_task(tmp_path, contents), get_registry())
    registry = get_registry()

    with pytest.raises(DataMissingError, match=r"3 of 3 files of source 'cases'.*first: "):
        read_rows(task, registry)
    assert task_status(task, registry)["present"] is False

    report = import_directory(upstream, [task])
    assert len(report.imported) == 3

    rows, checksums = read_rows(task, registry)
    assert sorted((r["title"], r["bug"], r["_path"]) for r in rows) == [
        ("add dark mode", 0, "cases/case-2.json"),
        ("crash on save", 1, "cases/case-1.json"),
    ]
    listed = (task.path.parent / "cases.sha256").read_bytes()
    assert checksums["cases"] == hashlib.sha256(listed).hexdigest()
    status = task_status(task, registry)
    assert status["present"] is True and status["rows"] == 2


def test_a_damaged_member_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    upstream = tmp_path / "upstream"
    task = load_task(_task(tmp_path, _upstream(upstream)), get_registry())
    import_directory(upstream, [task])
    assert len(read_rows(task, get_registry())[0]) == 2  # verified once: remembered by the list
    assert list((tmp_path / "home" / "data" / "file-sets").glob("*.json"))
    cached = next((tmp_path / "home" / "data").rglob("case-1.json"))
    cached.write_text('{"title": "tampered", "bug": 0}')
    with pytest.raises(SeebenchError, match="case-1.json is damaged"):
        read_rows(task, get_registry())


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("nothex  a.json", "expected '<sha256>  <path>'"),
        (f"{'a' * 64}  ../escape.json", "not a clean relative path"),
        (f"{'a' * 64}  /abs.json", "not a clean relative path"),
    ],
)
def test_bad_file_list_lines_name_the_line(tmp_path, line, problem):
    listing = tmp_path / "list.sha256"
    listing.write_text(f"{'b' * 64}  ok.json\n{line}\n")
    with pytest.raises(SeebenchError, match=rf"list.sha256:2: .*{problem[:20]}"):
        read_file_list(listing)


def test_a_path_listed_twice_is_an_error(tmp_path):
    listing = tmp_path / "list.sha256"
    listing.write_text(f"{'b' * 64}  same.json\n{'c' * 64}  same.json\n")
    with pytest.raises(SeebenchError, match="listed twice"):
        read_file_list(listing)


def test_an_opened_file_set_knows_each_member_s_checksum(tmp_path, monkeypatch):
    from seebench.data.file_sets import open_file_set
    from seebench.data.sources import task_sources

    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    upstream = tmp_path / "upstream"
    contents = _upstream(upstream)
    task = load_task(_task(tmp_path, contents), get_registry())
    import_directory(upstream, [task])
    files = open_file_set(task_sources(task)[0])
    assert files.digests == {
        name: hashlib.sha256(data).hexdigest() for name, data in contents.items()
    }
