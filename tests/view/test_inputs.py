"""Inputs the samples file does not hold are looked up by hash in the task's data: shown,
searched and compared; a hash the data lacks, or data that cannot be read, says so."""

from __future__ import annotations

import re

from seebench.data.dataset import hash_value
from seebench.errors import DataMissingError
from seebench.plugin_manager import get_registry
from seebench.view.catalog import Catalog
from seebench.view.cli import task_inputs
from seebench.view.index import SampleFilter
from seebench.view.inputs import InputLookup
from seebench.view.site import Site
from seebench.view.synthetic import write_unit

INPUTS = [
    f"the app crashes when saving file {i}" if i % 3 == 0 else f"add a dark mode {i}"
    for i in range(9)
]


def _records(accuracy_shift: int = 0) -> list[dict]:
    """Baseline-style records: an ``input_hash``, no ``input``."""
    return [
        {
            "id": f"b{i}",
            "input_hash": hash_value(text),
            "prediction": "bug",
            "gold": "bug" if (i + accuracy_shift) % 2 else "feature",
            "score": float((i + accuracy_shift) % 2),
        }
        for i, text in enumerate(INPUTS)
    ]


def _site(tmp_path, loader, calls=None) -> tuple[Site, Catalog]:
    write_unit(tmp_path, "majority", "baseline", "issues", _records())
    write_unit(tmp_path, "random", "baseline", "issues", _records(1))
    catalog = Catalog([tmp_path])
    catalog.refresh()
    return Site(catalog, get_registry(), inputs=InputLookup(loader)), catalog


def _unit(catalog: Catalog, model: str):
    [unit] = [u for u in catalog.list() if u.model == model]
    return unit


def _table(task: str, seed: int) -> dict:
    assert (task, seed) == ("issues", 42)
    return {hash_value(text): text for text in INPUTS[:-1]}  # the last item's data changed


def test_an_input_only_hashed_is_shown_from_the_task_data(tmp_path) -> None:
    site, catalog = _site(tmp_path, _table)
    unit = _unit(catalog, "majority")
    page = site.unit_page(unit.uid)
    assert "the app crashes when saving file 0</pre>" in page
    assert "looked up by input_hash" in page
    sample = site.sample_page(unit.uid, 8)  # its hash is not in the data as it is now
    assert "add a dark mode 8" not in sample
    assert "has no item with input hash" in sample


def test_a_search_finds_looked_up_inputs_and_highlights_them(tmp_path) -> None:
    site, catalog = _site(tmp_path, _table)
    unit = _unit(catalog, "majority")
    page = site.unit_page(unit.uid, 1, SampleFilter(query="CRASHES"), "?q=CRASHES")
    assert re.search(r'id="match-count">3 of 9 samples', page)
    assert page.count("<mark>crashes</mark>") >= 3
    page = site.unit_page(unit.uid, 1, SampleFilter(query="crashes", wrong=True), "")
    assert re.search(r'id="match-count">2 of 9 samples', page)  # b0 and b6 are wrong


def test_compare_rows_show_the_input_not_a_bare_hash(tmp_path) -> None:
    site, catalog = _site(tmp_path, _table)
    a, b = _unit(catalog, "majority"), _unit(catalog, "random")
    page = site.compare_page(a.uid, b.uid)
    assert "the app crashes when saving file 3" in page
    assert "has no item with input hash" in page  # b8, whose data changed


def test_unreadable_task_data_is_one_line_and_read_once(tmp_path) -> None:
    calls = []

    def missing(task: str, seed: int) -> dict:
        calls.append(task)
        raise DataMissingError("issues: data not installed (seebench data import ...)")

    site, catalog = _site(tmp_path, missing)
    unit = _unit(catalog, "majority")
    page = site.unit_page(unit.uid)
    assert "cannot be read: issues: data not installed" in page
    site.unit_page(unit.uid, 1, SampleFilter(query="crash"), "?q=crash")
    assert calls == ["issues"]


def test_task_inputs_reads_a_registered_tasks_data() -> None:
    import pytest

    from seebench.data.dataset import load_task_data
    from seebench.plugin_manager import get_task_index

    index = get_task_index()
    if "bug_report" not in index.tasks:
        pytest.skip("the example suite (plugins/seebench-example) is not installed")
    data = load_task_data(index.get("bug_report"), get_registry())
    table = task_inputs("bug_report", 42)
    assert {s.input_hash for s in (*data.test, *data.train)} <= set(table)
    assert table[data.test[0].input_hash] == data.test[0].input


def test_inputs_read_ahead_show_a_note_until_they_are_there(tmp_path) -> None:
    import threading

    release = threading.Event()

    def slow(task: str, seed: int) -> dict:  # a closure: read in a thread, not a process
        release.wait(60)
        return _table(task, seed)

    site, catalog = _site(tmp_path, slow)
    unit = _unit(catalog, "majority")
    thread = site.start_inputs()
    assert thread is not None and site.inputs.pending("issues", 42)
    assert "being read from the task&#39;s data" in site.unit_page(unit.uid)
    page = site.unit_page(unit.uid, 1, SampleFilter(query="crashes"), "?q=crashes")
    assert re.search(r'id="match-count">0 of 9 samples', page)  # not kept as the answer
    release.set()
    thread.join(60)
    page = site.unit_page(unit.uid, 1, SampleFilter(query="crashes"), "?q=crashes")
    assert re.search(r'id="match-count">3 of 9 samples', page)


def test_inputs_are_read_ahead_in_a_process_of_their_own(tmp_path) -> None:
    site, catalog = _site(tmp_path, _table)
    thread = site.start_inputs()
    thread.join(120)
    assert not site.inputs.pending("issues", 42)
    table, problem = site.inputs.inputs("issues", 42)
    assert problem == "" and table == _table("issues", 42)
    assert site.start_inputs() is None  # nothing left to read
