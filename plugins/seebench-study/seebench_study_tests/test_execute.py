"""Submit's trusted code: the starter's helpers are the study's, its stubs the participant's."""

from seebench_study.execute import trusted_starter

STARTER = '''import math


def helper(x):
    return math.floor(x) + 1


def solve(values):
    """Return the sum of helper(v) for v in values."""


def other(values):
    raise NotImplementedError


class Counter:
    pass
'''


def test_helpers_defined_in_full_are_trusted_and_stubs_come_from_the_participant():
    prompt, from_candidate = trusted_starter(STARTER)
    assert prompt == STARTER
    assert from_candidate == ("solve", "other", "Counter")


def test_a_starter_that_does_not_parse_is_not_trusted():
    assert trusted_starter("def broken(:\n") == ("", ())
