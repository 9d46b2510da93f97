"""The samples index: one pass builds it, a verified cache reuses it, any change rebuilds it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from seebench.view.index import (
    DAMAGED,
    INVALID,
    WRONG,
    SampleFilter,
    cache_paths,
    clear_memory,
    load_index,
    read_records,
    select,
)
from tests.view.conftest import unit_of


def _samples(catalog, model="alpha", task="issue_type"):
    unit = unit_of(catalog, model, task)
    return unit.samples_path, unit.root


def test_index_matches_the_file_line_by_line(catalog) -> None:
    samples, root = _samples(catalog)
    index, _ = load_index(samples, root)
    lines = samples.read_bytes().splitlines(keepends=True)
    assert index.n == len(lines) == 60
    for line in (0, 17, 59):
        start, end = index.offsets[line], index.offsets[line + 1]
        assert samples.read_bytes()[start:end] == lines[line]
        record = json.loads(lines[line])
        assert index.ids[line].decode() == record["id"]
        assert index.score[line] == record["score"]
        assert bool(index.flags[line] & WRONG) == (record["score"] < 1)


def test_cached_index_is_reused_and_rebuilt_after_a_change(catalog) -> None:
    samples, root = _samples(catalog)
    _, origin = load_index(samples, root)
    assert origin in ("memory", "cache")  # the catalog built it while checking the unit
    clear_memory()
    assert load_index(samples, root)[1] == "cache"
    assert cache_paths(samples)[0].exists()
    text = samples.read_text()
    samples.write_text(text.replace('"bug"', '"bag"', 1))
    index, origin = load_index(samples, root)
    assert origin == "built"
    assert "bag" in index.labels


def test_a_forged_cache_is_not_trusted(catalog) -> None:
    samples, root = _samples(catalog)
    cached = cache_paths(samples)[0]
    cached.write_bytes(b"PK\x03\x04 not an npz at all")
    clear_memory()
    _, origin = load_index(samples, root)
    assert origin == "built"


def test_where_the_folder_refuses_the_cache_it_goes_under_the_home(catalog, isolated_home) -> None:
    samples, root = _samples(catalog, "beta")
    beside = cache_paths(samples)[0]
    beside.unlink()
    beside.mkdir()  # nothing can be written there (as in a read-only folder, even for root)
    clear_memory()
    _, origin = load_index(samples, root)
    assert origin == "built"
    assert any(Path(isolated_home, "view-index").iterdir())
    clear_memory()
    assert load_index(samples, root)[1] == "cache"


def test_filters_and_search(catalog) -> None:
    samples, root = _samples(catalog)
    index, _ = load_index(samples, root)
    records = [json.loads(line) for line in samples.read_text().splitlines()]
    wrong = select(index, samples, root, SampleFilter(wrong=True))
    assert list(wrong) == [i for i, r in enumerate(records) if r["score"] < 1]
    bugs = select(index, samples, root, SampleFilter(label="bug"))
    assert list(bugs) == [i for i, r in enumerate(records) if "bug" in (r["gold"], r["prediction"])]
    found = select(index, samples, root, SampleFilter(query="ISSUE 17:"))
    assert list(found) == [17]
    scored = select(index, samples, root, SampleFilter(min_value=0.5, max_value=1.0))
    assert list(scored) == [i for i, r in enumerate(records) if r["score"] == 1.0]
    script = select(index, samples, root, SampleFilter(query='<script>document.title="'))
    assert list(script) == [2]


def test_damaged_and_invalid_lines_are_flagged(tmp_path: Path) -> None:
    root = tmp_path
    samples = root / "x.samples.jsonl"
    samples.write_bytes(
        b'{"id": "a", "prediction": null, "gold": 1, "error": "no answer"}\n'
        b"not json\n"
        b'{"id": "c", "prediction": 1, "gold": 1, "score": 1}\n' + b"[" * 100_000 + b"\n\xff\xfe\n"
    )
    index, _ = load_index(samples, root)
    assert index.n == 5
    assert index.flags[0] & INVALID
    assert [bool(f & DAMAGED) for f in index.flags] == [False, True, False, True, True]
    rows = read_records(index, samples, root, [0, 1, 2], max_line_bytes=1000)
    assert [r is None for _, r, _ in rows] == [False, True, False]
    assert list(np.flatnonzero(index.flags & DAMAGED)) == [1, 3, 4]


def test_search_across_chunks_and_from_the_kept_text(tmp_path: Path, monkeypatch) -> None:
    import seebench.view.index as index_module
    from seebench.view.index import clear_memory, load_index, order, search

    long = "x" * 70 + "NEEDLE"
    lines = [
        {"id": f"s{i}", "input": (long if i % 7 == 0 else f"plain {i}") + " Crash" * (i % 3)}
        for i in range(200)
    ]
    samples = tmp_path / "s.samples.jsonl"
    samples.write_text("".join(json.dumps(r) + "\n" for r in lines))
    monkeypatch.setattr(index_module, "SEARCH_CHUNK", 97)  # matches straddle chunk ends
    clear_memory()
    index, _ = load_index(samples, tmp_path)
    for query in ("crash", "CRASH", "crash", long.lower(), "needle", "no such"):
        expected = [i for i, r in enumerate(lines) if query.lower() in r["input"].lower()]
        assert search(index, samples, tmp_path, query).tolist() == expected, query
    by_id = order(index, np.arange(index.n), "id", desc=True)
    assert [lines[i]["id"] for i in by_id] == sorted((r["id"] for r in lines), reverse=True)
