"""Rows of a data file kept on disk (:mod:`seebench.data.table_cache`): read back only for the
same content, format, options and reader; anything damaged or not plain is parsed again."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from seebench.data import table_cache
from seebench.data.readers import read_csv


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(table_cache.TABLE_CACHE_VARIABLE, raising=False)
    return tmp_path / "home"


class CountingReader:
    """A data reader that counts its calls and returns what it was told to."""

    def __init__(self, rows):
        self.rows, self.calls = rows, 0

    def __call__(self, path, **options):
        self.calls += 1
        return [dict(row) if isinstance(row, dict) else row for row in self.rows]


ROWS = [
    {"text": "crash on start", "label": 1, "score": 0.25, "flag": True, "note": None},
    {"text": "add dark mode", "label": 0, "score": 1.0, "flag": False, "note": "ui"},
]


def _file(tmp_path: Path, text: str = "a,b\n1,2\n") -> Path:
    path = tmp_path / "data.csv"
    path.write_text(text)
    return path


def test_rows_are_read_back_unchanged_without_parsing_again(home, tmp_path):
    path, reader = _file(tmp_path), CountingReader(ROWS)
    first = table_cache.read_through(path, "csv", {}, reader)
    again = table_cache.read_through(path, "csv", {}, reader)
    assert first == again == ROWS and reader.calls == 1
    assert [type(v) for v in again[0].values()] == [str, int, float, bool, type(None)]
    assert list(again[1]) == list(ROWS[1])  # column order kept


def test_other_content_options_or_format_are_parsed_again(home, tmp_path):
    path, reader = _file(tmp_path), CountingReader(ROWS)
    table_cache.read_through(path, "csv", {}, reader)
    table_cache.read_through(path, "csv", {"sep": ";"}, reader)
    table_cache.read_through(path, "tsv", {}, reader)
    path.write_text("a,b\n3,4\n")
    table_cache.read_through(path, "csv", {}, reader)
    assert reader.calls == 4


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text.replace("crash on start", "crash on stop"),  # rows edited
        lambda text: text.split("\n", 1)[1],  # header lost
        lambda text: text[: len(text) // 2],  # cut short
        lambda text: "not json\n" + text.split("\n", 1)[1],
        lambda text: text.replace('"rows": 2', '"rows": 3'),  # count disagrees
    ],
)
def test_a_damaged_entry_is_ignored_parsed_again_and_rewritten(home, tmp_path, damage):
    path, reader = _file(tmp_path), CountingReader(ROWS)
    table_cache.read_through(path, "csv", {}, reader)
    [entry] = (home / "cache" / "tables").rglob("*.json")
    entry.write_text(damage(entry.read_text()))
    assert table_cache.read_through(path, "csv", {}, reader) == ROWS and reader.calls == 2
    assert table_cache.read_through(path, "csv", {}, reader) == ROWS and reader.calls == 2


def test_an_entry_under_another_key_is_not_taken(home, tmp_path):
    path, reader = _file(tmp_path), CountingReader(ROWS)
    table_cache.read_through(path, "csv", {}, reader)
    [entry] = (home / "cache" / "tables").rglob("*.json")
    header, body = entry.read_text().split("\n", 1)
    moved = json.loads(header) | {"key": "0" * 64}
    entry.write_text(json.dumps(moved) + "\n" + body)
    table_cache.read_through(path, "csv", {}, reader)
    assert reader.calls == 2


@pytest.mark.parametrize(
    "rows",
    [
        [{1: "a number as a column name"}],
        [{"when": object()}],
        [{"x": float("inf")}],
        ["not a mapping"],
    ],
)
def test_rows_that_json_would_change_are_not_kept(home, tmp_path, rows):
    path, reader = _file(tmp_path), CountingReader(rows)
    table_cache.read_through(path, "csv", {}, reader)
    table_cache.read_through(path, "csv", {}, reader)
    assert reader.calls == 2
    assert not (home / "cache" / "tables").exists()


def test_the_cache_can_be_turned_off(home, tmp_path, monkeypatch):
    monkeypatch.setenv(table_cache.TABLE_CACHE_VARIABLE, "0")
    path, reader = _file(tmp_path), CountingReader(ROWS)
    table_cache.read_through(path, "csv", {}, reader)
    table_cache.read_through(path, "csv", {}, reader)
    assert reader.calls == 2


def test_a_home_that_cannot_be_written_only_costs_the_parse(home, tmp_path):
    home.mkdir()
    (home / "cache").write_text("a file where the folder would be")
    path, reader = _file(tmp_path), CountingReader(ROWS)
    assert table_cache.read_through(path, "csv", {}, reader) == ROWS
    assert table_cache.read_through(path, "csv", {}, reader) == ROWS and reader.calls == 2


def test_a_fresh_process_reads_a_kept_csv_without_importing_pandas(home, tmp_path):
    pytest.importorskip("pandas")
    path = _file(tmp_path, "title,label\ncrash on start,1\nadd dark mode,0\n")
    parsed = table_cache.read_through(path, "csv", {}, read_csv)
    code = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from seebench.data.readers import read_csv\n"
        "from seebench.data.table_cache import read_through\n"
        f"rows = read_through(Path({str(path)!r}), 'csv', {{}}, read_csv)\n"
        "print(json.dumps([rows, 'pandas' in sys.modules]))\n"
    )
    env = {**os.environ, "SEEBENCH_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    rows, imported_pandas = json.loads(done.stdout)
    assert (
        rows
        == parsed
        == [
            {"title": "crash on start", "label": 1},
            {"title": "add dark mode", "label": 0},
        ]
    )
    assert not imported_pandas


def test_a_task_source_is_read_through_the_cache(home, tmp_path):
    from seebench.data.dataset import load_task_data
    from seebench.plugin_manager import build_registry, create_plugin_manager
    from seebench.tasks.validate import load_task
    from tests.conftest import make_binary_task

    registry = build_registry(create_plugin_manager(entry_points=False))
    task = load_task(make_binary_task(tmp_path / "tasks", "kept_rows", rows=30), registry)
    first = load_task_data(task, registry)
    assert len(list((home / "cache" / "tables").rglob("*.json"))) == 1
    again = load_task_data(task, registry)
    assert [s.id for s in again.test] == [s.id for s in first.test]


def test_a_large_table_is_kept_as_short_lines_and_read_back_in_order(home, tmp_path):
    many = [{"text": f"row {n}", "label": n % 2} for n in range(2 * table_cache.ROWS_PER_LINE + 3)]
    path, reader = _file(tmp_path), CountingReader(many)
    table_cache.read_through(path, "csv", {}, reader)
    [entry] = (home / "cache" / "tables").rglob("*.json")
    assert len(entry.read_text().splitlines()) == 1 + 3  # the header, then three lines of rows
    assert table_cache.read_through(path, "csv", {}, reader) == many and reader.calls == 1


def test_an_empty_table_is_kept_too(home, tmp_path):
    path, reader = _file(tmp_path), CountingReader([])
    table_cache.read_through(path, "csv", {}, reader)
    assert table_cache.read_through(path, "csv", {}, reader) == [] and reader.calls == 1


def test_a_line_that_is_not_a_list_of_rows_is_not_taken_even_with_its_checksum(home, tmp_path):
    path, reader = _file(tmp_path), CountingReader(ROWS)
    table_cache.read_through(path, "csv", {}, reader)
    [entry] = (home / "cache" / "tables").rglob("*.json")
    header = json.loads(entry.read_text().split("\n", 1)[0])
    body = json.dumps({"0": ROWS[0], "1": ROWS[1]}).encode()  # two "rows", not a list
    forged = header | {"sha256": hashlib.sha256(body).hexdigest()}
    entry.write_bytes(json.dumps(forged).encode() + b"\n" + body)
    assert table_cache.read_through(path, "csv", {}, reader) == ROWS and reader.calls == 2
