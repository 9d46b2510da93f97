"""Judge prompts state the task and one parseable answer format; BatchEval's schedule."""

from __future__ import annotations

import math

import pytest

from seebench.suites.judge import batching, prompts
from seebench.suites.judge.parsing import parse_batch_scores, parse_score, parse_verdict

ITEM = prompts.JudgeItem(
    input="int f(int x) { return x * 2; }",
    response="def f(x):\n    return x * 2\n```\nnot the end",
    languages=("C++", "Python"),
)


@pytest.mark.parametrize("kind", sorted(prompts.KINDS))
def test_every_prompt_names_the_languages_and_fences_the_response(kind):
    text = prompts.vanilla_prompt(prompts.KINDS[kind], ITEM)
    assert "C++" in text
    assert "````\ndef f(x):" in text  # a longer fence than the response's own
    assert text.rstrip().endswith("Overall: X/5")


def test_the_answer_lines_the_prompts_ask_for_are_the_ones_the_parsers_read():
    kind = prompts.KINDS["translation"]
    assert "Overall: X/5" in prompts.vanilla_prompt(kind, ITEM)
    assert parse_score("...\nOverall: 4/5").value == 4
    pairwise = prompts.pairwise_prompt(kind, ITEM, "a = 1", "b = 2")
    for line, value in (("Overall: A", 1), ("Overall: B", -1), ("Overall: TIE", 0)):
        assert line in pairwise
        assert parse_verdict(line).value == value
    assert "Score: X" in prompts.geval_score_prompt(kind, ITEM, "1. Read.\n2. Grade.")
    batch = prompts.batcheval_prompt(kind, [ITEM, ITEM, ITEM])
    assert "Response 3: X" in batch and "# Sample 3" in batch
    assert [
        p.value for p in parse_batch_scores("Response 1: 4\nResponse 2: 3\nResponse 3: 5", 3)
    ] == [4, 3, 5]


def test_a_reference_is_shown_only_when_given():
    kind = prompts.KINDS["generation"]
    assert "Reference solution" not in prompts.vanilla_prompt(kind, ITEM)
    with_reference = prompts.JudgeItem(ITEM.input, ITEM.response, ITEM.languages, "ref")
    assert "Reference solution" in prompts.vanilla_prompt(kind, with_reference)


def test_weighted_score_is_the_expected_grade_over_grade_tokens():
    logprobs = {"4": math.log(0.6), "5": math.log(0.2), " 3": math.log(0.1), "x": math.log(0.1)}
    assert prompts.weighted_score(logprobs) == pytest.approx((4 * 0.6 + 5 * 0.2 + 3 * 0.1) / 0.9)
    assert prompts.weighted_score({"seven": 0.0, "9": 0.0}) is None


def test_each_round_places_every_response_once():
    scores: list[list[float | None]] = [[] for _ in range(23)]
    for round_index in range(batching.ROUNDS):
        batches = batching.schedule_round(scores, round_index=round_index, seed=7)
        assert sorted(i for b in batches for i in b) == list(range(23))
        assert max(len(b) for b in batches) <= batching.BATCH_SIZE
        for b in batches:
            for i in b:
                scores[i].append(float(i % 5 + 1))
    assert batching.schedule_round(scores, round_index=2, seed=7) == batching.schedule_round(
        scores, round_index=2, seed=7
    )


def test_later_rounds_mix_good_and_bad_responses_in_each_batch():
    scores = [[float(i)] for i in range(30)]  # response i has grade i
    batches = batching.schedule_round(scores, round_index=1, batch_size=10)
    assert len(batches) == 3
    for batch in batches:
        assert max(batch) - min(batch) >= 27  # each batch spans the range


def test_final_scores_average_the_scored_rounds():
    assert batching.final_scores([[4.0, None, 5.0], [None, None]]) == [4.5, None]
