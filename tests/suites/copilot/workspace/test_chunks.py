"""Chunking: definitions via tree-sitter, leading comments attached, windows elsewhere."""

from __future__ import annotations

import json

import pytest

from seebench.suites.copilot.workspace import chunks
from seebench.suites.copilot.workspace.chunks import chunk_source, chunk_tree, repository_chunks
from tests.suites.copilot.workspace.repos import FILES


def _spans(text, file, language):
    return [(c.start, c.end, c.symbol) for c in chunk_source(text, file, language)]


def test_python_functions_and_small_classes_are_chunks():
    spans = _spans(FILES["tiny/store.py"], "tiny/store.py", "python")
    assert spans == [(1, 5, ""), (6, 9, "load_store"), (12, 24, "Store")]


def test_javascript_jsdoc_is_attached_and_arrow_functions_count():
    spans = _spans(FILES["web/retry.js"], "web/retry.js", "javascript")
    # comments right above (at most one blank line between) belong to the definition
    assert (1, 8, "backoffDelay") in spans
    assert (10, 19, "fetchWithRetry") in spans
    assert (20, 21, "") in spans  # the rest is windowed


def test_typescript_interfaces_and_functions():
    spans = _spans(FILES["src/color.ts"], "src/color.ts", "typescript")
    assert spans == [(1, 5, "Rgb"), (7, 10, "parseHexColor")]


def test_long_classes_are_opened_and_long_functions_windowed(monkeypatch):
    monkeypatch.setattr(chunks, "MAX_LINES", 6)
    monkeypatch.setattr(chunks, "WINDOW_LINES", 4)
    spans = _spans(FILES["tiny/store.py"], "tiny/store.py", "python")
    assert (15, 17, "__init__") in spans and (19, 24, "save") in spans
    assert (12, 14, "Store") in spans  # the class header, named after its class
    body = "def long():\n" + "".join(f"    x{i} = {i}\n" for i in range(9))
    assert _spans(body, "a.py", "python") == [(1, 4, "long"), (5, 8, "long"), (9, 10, "long")]


def test_unknown_languages_and_unparsable_text_are_windowed(monkeypatch):
    monkeypatch.setattr(chunks, "WINDOW_LINES", 3)
    assert _spans("a\nb\n\n\n\n\nc\n", "notes.txt", None) == [(1, 3, ""), (7, 7, "")]


def test_tree_skips_dependencies_and_the_cache_reads_back(tmp_path):
    for name, text in {**FILES, "node_modules/x/index.js": "function x() {}\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = chunk_tree(tmp_path)
    assert {c.file for c in found} == {"tiny/store.py", "web/retry.js", "src/color.ts"}
    assert repository_chunks(tmp_path, "tiny") == found
    assert repository_chunks(tmp_path / "nowhere", "tiny") == found  # served from the cache
    cached = next((chunks.index_dir() / "chunks").glob("tiny-*.json"))
    cached.write_text("{broken")
    assert repository_chunks(tmp_path, "tiny") == found  # rebuilt


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: {**r, "start": str(r["start"])},
        lambda r: {**r, "text": None},
        lambda r: {**r, "start": 0},
        lambda r: {**r, "end": r["start"] - 1},
        lambda r: {**r, "extra": 1},
        lambda r: [r["file"]],
    ],
    ids=["start as text", "no text", "line 0", "end before start", "extra field", "not a record"],
)
def test_a_cache_file_whose_records_are_not_chunks_is_rebuilt(tmp_path, damage):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = repository_chunks(tmp_path, "tiny")
    cached = next((chunks.index_dir() / "chunks").glob("tiny-*.json"))
    records = json.loads(cached.read_text())
    cached.write_text(json.dumps([damage(records[0]), *records[1:]]))
    assert repository_chunks(tmp_path, "tiny") == found  # rebuilt from the tree
    assert json.loads(cached.read_text()) == records  # and the file replaced
