from __future__ import annotations

import pytest

from seebench.suites.annotation.scale import Scale, admissible_levels, check_level


def test_levels_are_explicit_and_admissible_levels_are_the_weaker_ones():
    assert admissible_levels("nominal") == ("nominal",)
    assert admissible_levels("interval") == ("nominal", "ordinal", "interval")
    with pytest.raises(ValueError, match="'likert' is not one of"):
        check_level("likert")
    with pytest.raises(ValueError):
        admissible_levels(None)


def test_parse_accepts_numbers_text_and_labels(likert4):
    assert likert4.parse(4) == 4
    assert likert4.parse(4.0) == 4
    assert likert4.parse(" 3 ") == 3
    assert likert4.parse("strongly agree") == 4
    assert likert4.parse(None) is None
    assert likert4.parse(float("nan")) is None
    assert likert4.parse("") is None
    with pytest.raises(ValueError, match="5 is not on the scale"):
        likert4.parse(5)
    with pytest.raises(ValueError, match="'maybe' is not on the scale"):
        likert4.parse("maybe")


def test_text_scale_uses_ranks_and_refuses_interval():
    scale = Scale.from_config(
        [{"value": "close", "label": "closed"}, {"value": "open", "label": "open"}]
    )
    assert scale.domain() == [0.0, 1.0]
    assert scale.numeric("open") == 1.0
    scale.check_level("nominal")
    with pytest.raises(ValueError, match="needs numeric scale values"):
        scale.check_level("interval")


@pytest.mark.parametrize(
    "config, message",
    [
        ([[1, "a"]], "at least two"),
        ([[1, "a"], [1, "b"]], "duplicate values"),
        ([[1, "a"], {"value": 2}], r"scale\[1\]"),
        ([[1, "a"], [True, "b"]], "not a number or a string"),
    ],
)
def test_bad_scale_configs_name_the_entry(config, message):
    with pytest.raises(ValueError, match=message):
        Scale.from_config(config)


def test_config_round_trip(likert4):
    assert Scale.from_config(likert4.to_config()) == likert4
