"""The similarity metrics reproduce the study's released per-item scores.

BLEU, chrF++ and ROUGE-L are checked on all 450 scoring items; METEOR (a few seconds per
hundred items) on a fixed seeded sample of 40 items per task.
"""

from __future__ import annotations

import random

import pytest

from seebench.suites.judge import similarity
from tests.requirements import requires

SCORING = ("codetransocean_scoring", "codexglue_scoring", "complexcodeeval_scoring")
TOLERANCE = 1e-9
METEOR_SAMPLE = 40


def test_the_pinned_library_versions_are_installed():
    assert similarity.pin_mismatches() == {}


@pytest.mark.parametrize("task_name", SCORING)
@pytest.mark.parametrize(
    ("metric", "released_name"),
    [(similarity.bleu, "bleu"), (similarity.chrf_pp, "chrf"), (similarity.rouge_l, "rouge")],
    ids=["bleu", "chrf++", "rouge-l"],
)
def test_fast_metrics_match_every_released_score(released, task_name, metric, released_name):
    task = released(task_name)
    ours = [metric(r.output, r.gold) for r in task.responses]
    worst = max(abs(a - b) for a, b in zip(ours, task.methods[released_name], strict=True))
    assert worst < TOLERANCE


@requires("wordnet")
@pytest.mark.parametrize("task_name", SCORING)
def test_meteor_matches_the_released_scores_on_a_seeded_sample(released, task_name):
    task = released(task_name)
    chosen = sorted(random.Random(f"meteor-{task_name}").sample(range(150), METEOR_SAMPLE))
    released_values = task.methods["meteor"]
    for i in chosen:
        response = task.responses[i]
        value = similarity.meteor(response.output, response.gold)
        assert value == pytest.approx(released_values[i], abs=TOLERANCE), f"item {i}"


def test_fast_rouge_l_equals_rouge_score_end_to_end(released):
    task = released("complexcodeeval_scoring")
    for i in sorted(random.Random("rouge").sample(range(150), 15)):
        response = task.responses[i]
        assert similarity.rouge_l(response.output, response.gold) == similarity.rouge_l_reference(
            response.output, response.gold
        )


def test_identical_texts_score_100_and_empty_predictions_0():
    text = "int add(int a, int b) { return a + b; }"
    assert similarity.bleu(text, text) == pytest.approx(100)
    assert similarity.rouge_l(text, text) == pytest.approx(100)
    assert similarity.chrf_pp(text, text) == pytest.approx(100)
    assert similarity.rouge_l("", text) == 0.0
    assert similarity.bleu("", text) == 0.0


def test_tokenization_is_a_named_choice():
    assert similarity.tokenize("a  b\tc", "whitespace") == ["a", "b", "c"]
    with pytest.raises(similarity.SimilarityUnavailableError, match="unknown tokenization 'bpe'"):
        similarity.tokenize("x", "bpe")


def test_crystalbleu_ignores_the_commonest_ngrams():
    corpus = ["x = x + 1 ;"] * 20 + ["return y ;"]
    ignored = similarity.trivial_ngrams(corpus, tokenization="whitespace", top=10)
    assert ("x",) in ignored and ("x", "=") in ignored
    plain = similarity.crystalbleu(
        "x = x + 1 ; return y ;", "x = x + 1 ; return z ;", ignoring={}, tokenization="whitespace"
    )
    crystal = similarity.crystalbleu(
        "x = x + 1 ; return y ;",
        "x = x + 1 ; return z ;",
        ignoring=ignored,
        tokenization="whitespace",
    )
    assert crystal < plain
