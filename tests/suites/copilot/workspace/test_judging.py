"""The exact and line-Jaccard rules and keyword normalisation."""

from __future__ import annotations

from seebench.suites.copilot.workspace.judging import (
    first_correct_rank,
    keyword_found,
    line_jaccard,
    normalise,
)

GOLD = [{"file": "a.py", "start": 10, "end": 19}]


def _snip(file, start, end):
    return {"file": file, "start": start, "end": end}


def test_exact_rule_counts_any_shared_line_in_the_same_file():
    ranked = [_snip("b.py", 10, 19), _snip("a.py", 1, 9), _snip("a.py", 19, 40)]
    assert first_correct_rank(ranked, GOLD) == 3
    assert first_correct_rank(ranked[:2], GOLD) is None


def test_jaccard_rule_needs_enough_of_the_same_lines():
    assert line_jaccard(_snip("a.py", 10, 19), GOLD[0]) == 1.0
    assert line_jaccard(_snip("a.py", 15, 24), GOLD[0]) == 5 / 15
    assert line_jaccard(_snip("b.py", 10, 19), GOLD[0]) == 0.0
    ranked = [_snip("a.py", 15, 24), _snip("a.py", 8, 19)]
    assert first_correct_rank(ranked, GOLD, "jaccard") == 2
    assert first_correct_rank(ranked, GOLD, "jaccard", threshold=0.3) == 1


def test_keywords_match_across_case_punctuation_and_identifier_styles():
    assert normalise("Calls getNextDate_from(x)!") == "calls get next date from x"
    assert keyword_found("It uses parse_args to read argv.", ["parseArgs"])
    assert keyword_found("see `os.replace`", ["rename", "os.replace"])
    assert not keyword_found("it reparses args", ["parse_args"])  # whole words only
    assert not keyword_found("anything", ["..."])  # a keyword with no words never matches
