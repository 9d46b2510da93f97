"""Option checking of registered methods and scorers: valid options pass, invalid ones get one line."""

from __future__ import annotations

from seebench import registry_entries
from seebench.registry_entries import option_problems

SCHEMA = {
    "k": {"type": "integer", "minimum": 1, "description": "a positive whole number"},
    "mode": {"enum": ["fast", "slow"]},
}


def test_valid_options_have_no_problems() -> None:
    assert option_problems(SCHEMA, {"k": 3, "mode": "fast"}, "scorer 'x'") == []
    assert option_problems(SCHEMA, {"k": 3}, "scorer 'x'") == []  # again: the cached validator


def test_each_invalid_option_is_one_line_naming_it() -> None:
    problems = option_problems(SCHEMA, {"k": 0, "mode": "medium", "extra": 1}, "scorer 'x'")
    assert problems[0] == "scorer 'x': option k=0 is invalid: a positive whole number"
    assert problems[1].startswith("scorer 'x': option mode='medium' is invalid: ")
    assert problems[2].startswith("scorer 'x': unknown option 'extra'")
    assert len(problems) == 3


def test_without_the_compiled_validator_the_answers_are_the_same(monkeypatch) -> None:
    cases = [{"k": 3, "mode": "fast"}, {"k": 0}, {"k": "3"}, {"mode": None}, {"extra": 1}]
    fast = [option_problems(SCHEMA, options, "method 'm'") for options in cases]
    monkeypatch.setattr(registry_entries, "_surely_valid", lambda schema, value: False)
    assert [option_problems(SCHEMA, options, "method 'm'") for options in cases] == fast
    assert option_problems(None, {"anything": 1}, "method 'm'") == []
