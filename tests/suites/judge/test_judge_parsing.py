"""Reading scores and verdicts from judge replies: a named rule or an honest failure."""

from __future__ import annotations

import pytest

from seebench.suites.judge.parsing import parse_batch_scores, parse_score, parse_verdict


@pytest.mark.parametrize(
    ("reply", "value", "rule"),
    [
        ("Correctness is good.\nOverall: 4/5", 4.0, "overall"),
        ("**Overall: 4.5/5**", 4.5, "overall"),
        ("Overall score: 3", 3.0, "overall"),
        ("Feedback: solid. [RESULT] 4", 4.0, "result_tag"),
        ("Rating: [[2]]", 2.0, "double_bracket"),
        ("Score: 5", 5.0, "score"),
        ("Readability 2/5, consistency 4/5. Overall: 3/5", 3.0, "overall"),
        ("Overall: 2/5 ... on reflection, Overall: 3/5", 3.0, "overall"),
    ],
)
def test_scores_in_the_expected_formats(reply, value, rule):
    parsed = parse_score(reply)
    assert (parsed.value, parsed.rule, parsed.reason) == (value, rule, None)


def test_a_bracketed_score_is_read_even_after_a_result_tag_without_number():
    """The study's rule list lost a comma, merging '[RESULT] n' and '[[n]]' into one pattern."""
    parsed = parse_score("[RESULT] see above. The response deserves [[4]] in my view, 7 lines")
    assert (parsed.value, parsed.rule) == (4.0, "double_bracket")


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("", "empty reply"),
        ("The code compiles and has 12 methods.", "no score in the expected format"),
        ("Overall: 29/5", "29 is outside 1-5"),
        ("Overall: 7/10", "score out of 10, not 5"),
        ("Rating: [[0]]", "0 is outside 1-5"),
    ],
)
def test_replies_without_a_valid_score_are_unscored(reply, reason):
    parsed = parse_score(reply)
    assert parsed.value is None and not parsed.scored
    assert parsed.reason == reason


def test_a_ten_point_scale_and_integer_scores():
    assert parse_score("Rating: [[8]]", (1, 10)).value == 8.0
    assert parse_score("Overall: 3.5/5", integer=True).reason == "3.5 is not an integer"


@pytest.mark.parametrize(
    ("reply", "value", "rule"),
    [
        ("Overall: A", 1, "overall"),
        ("Overall: B", -1, "overall"),
        ("Overall: TIE", 0, "overall"),
        ("Overall: a tie", 0, "overall"),  # the study read this as FIRST
        ("**Overall**: SECOND", -1, "overall"),
        ("Verdict: Response 1", 1, "verdict"),
        ("Feedback: ... [RESULT] B", -1, "result_tag"),
        ("So, the final decision is Response 2.", -1, "final_decision"),
        ("[[A]]", 1, "double_bracket"),
    ],
)
def test_verdicts_in_the_expected_formats(reply, value, rule):
    parsed = parse_verdict(reply)
    assert (parsed.value, parsed.rule) == (value, rule)


@pytest.mark.parametrize(
    "reply",
    [
        "Both translations keep the same properties and behaviour.",  # 'tie' inside 'properties'
        "A is shorter but B handles errors.",
        "Overall: it depends",
        None,
    ],
)
def test_replies_without_a_verdict_are_unscored(reply):
    parsed = parse_verdict(reply)
    assert parsed.value is None and parsed.reason


def test_batch_replies_keep_each_readable_score():
    reply = "Response 1: 4\nResponse 2: 9\nResponse 3: 2\nResponse 3: 5\nResponse 5: 1/5"
    parsed = parse_batch_scores(reply, 5)
    assert [p.value for p in parsed] == [4.0, None, None, None, 1.0]
    assert parsed[1].reason == "9 is outside 1-5"
    assert parsed[2].reason == "conflicting scores 2, 5"
    assert parsed[3].reason == "no score for response 4"
