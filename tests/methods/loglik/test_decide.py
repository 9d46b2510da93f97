"""Decisions from stored option log-likelihoods: raw, per character, calibrated; ECE."""

from __future__ import annotations

import math

import pytest

from seebench.errors import SeebenchError
from seebench.methods.loglik.decide import (
    decide_label,
    decide_label_set,
    expected_calibration_error,
    option_values,
)
from seebench.methods.loglik.questions import verbalisers

OPTIONS = {
    "bug": {"logprob": -2.0, "chars": 4, "tokens": 1},
    "feature request": {"logprob": -3.0, "chars": 16, "tokens": 2},
}
ORDER = ["bug", "feature request"]


def test_raw_and_per_character_decisions_differ_when_lengths_do():
    assert decide_label(OPTIONS, ORDER, "raw") == "bug"
    assert decide_label(OPTIONS, ORDER, "norm") == "feature request"  # -3/16 > -2/4
    assert option_values(OPTIONS, "norm")["bug"] == pytest.approx(-0.5)


def test_calibration_divides_out_the_content_free_prior():
    prior = {"bug": 0.9, "feature request": 0.1}  # the model says "bug" to anything
    assert decide_label(OPTIONS, ORDER, "calibrated", prior) == "feature request"
    assert decide_label(OPTIONS, ORDER, "calibrated", {"bug": 0.5, "feature request": 0.5}) == "bug"


def test_ties_go_to_the_first_label():
    tied = {k: {**v, "logprob": -1.0} for k, v in OPTIONS.items()}
    assert decide_label(tied, ORDER, "raw") == "bug"


def test_a_label_applies_when_yes_beats_no():
    per_label = {
        "bug": {"yes": {"logprob": -0.1, "chars": 4}, "no": {"logprob": -2.0, "chars": 3}},
        "ui": {"yes": {"logprob": -3.0, "chars": 4}, "no": {"logprob": -0.2, "chars": 3}},
    }
    assert decide_label_set(per_label, ["bug", "ui"], "raw") == ["bug"]


def test_expected_calibration_error():
    error, bins = expected_calibration_error([0.9, 0.9, 0.6, 0.6], [True, False, True, True])
    assert error == pytest.approx(0.5 * abs(0.9 - 0.5) + 0.5 * abs(0.6 - 1.0))
    assert [b["count"] for b in bins] == [2, 2]
    assert math.isclose(expected_calibration_error([], [])[0], 0.0)


def test_verbalisers_default_to_label_names_and_reject_unknown_labels():
    class Task:
        name, label_names = "t", ["bug", "other"]

    assert verbalisers(Task(), {}) == {"bug": "bug", "other": "other"}
    assert verbalisers(Task(), {"verbalisers": {"bug": "defect"}})["bug"] == "defect"
    with pytest.raises(SeebenchError, match="unknown answer"):
        verbalisers(Task(), {"verbalisers": {"feature": "x"}})
