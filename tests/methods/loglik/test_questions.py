"""What loglik asks: verbaliser overrides on any question's answers, keyed by the answer's
name (a label, or a scale value as text); a type's own questions are used when it asks them."""

from __future__ import annotations

import pytest

from seebench.errors import SeebenchError
from seebench.methods.base import AsksChoices, ChoiceQuestion
from seebench.methods.loglik.questions import asks_choices, with_verbalisers
from seebench.models.chat import Prompt


class _Task:
    name = "t"


def _question(answers):
    return ChoiceQuestion("s", Prompt("s", ()), answers, tuple(str(a) for a in answers))


def test_verbalisers_key_scale_values_by_their_text():
    asked = [_question((1, 2, 3))]
    (changed,) = with_verbalisers(_Task(), asked, {"verbalisers": {"1": "one"}})
    assert changed.verbalisers == ("one", "2", "3") and changed.answers == (1, 2, 3)
    assert changed.keys == ("1", "2", "3")
    assert with_verbalisers(_Task(), asked, {}) == asked


def test_unknown_answers_are_named_in_one_line():
    with pytest.raises(SeebenchError, match=r"unknown answer\(s\) \['7'\]"):
        with_verbalisers(_Task(), [_question((1, 2))], {"verbalisers": {"7": "seven"}})


def test_a_type_asks_its_own_questions_only_when_it_implements_the_contract():
    class Asking:
        def choices_not_applicable(self, task):
            return None

        def choice_questions(self, task, samples, *, shots, seed):
            raise AssertionError

        def content_free_question(self, task, samples, *, shots, seed, text):
            raise AssertionError

    class Labelled:
        behaviour = object()

    class Rated:
        behaviour = Asking()

    assert isinstance(Asking(), AsksChoices)
    assert asks_choices(Labelled()) is None and asks_choices(Rated()) is Rated.behaviour
