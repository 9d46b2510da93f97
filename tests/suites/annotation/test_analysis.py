from __future__ import annotations

import json

from seebench.suites.annotation.analysis import ModelRater, analyse_task, ratings_per_item


def test_analyse_task_puts_models_and_random_rater_in_one_analysis(small_data):
    copy = dict(small_data.ratings["a"])
    models = [
        ModelRater("copy", copy, dict.fromkeys(copy, 0.8)),
        ModelRater("no_confidence", {"i1": 2, "i2": 2}),
        ModelRater("broken", {"i1": 9}),
    ]
    result = analyse_task(
        "toy", small_data, models, band_repetitions=30, repetitions=5, fractions=(0.5, 1.0)
    )
    assert result.matrices["interval"].raters == ("a", "b", "c", "copy", "no_confidence", "random")
    assert list(result.curves) == ["copy"]
    assert result.effort["copy"]["overall"] == result.safe_fraction["copy"] / 3
    assert result.problems == [
        "toy: model 'broken' left out: rater 'broken', item 'i1': 9 is not on the scale [1, 2, 3, 4]"
    ]
    view = json.loads(json.dumps(result.to_json()))
    assert view["summary"]["items"] == 6
    assert {row["zone"] for row in view["zones"]} == {"HH", "HM", "MM"}
    assert view["replacement"]["copy"]["confidence"]["fractions"] == [0.5, 1.0]
    assert ratings_per_item(small_data) == 3.0


def test_analyse_task_without_human_pairs_reports_instead_of_failing(small_data):
    single = small_data.subset(["i1"])
    result = analyse_task("one", single, band_repetitions=5)
    assert result.band is None
    assert result.problems and "no human band" in result.problems[0]


def test_a_rater_that_disagrees_with_the_humans_is_never_safe(small_data, monkeypatch):
    from seebench.suites.annotation import analysis

    # the band alone calls every fraction safe (as with 11 raters per item: one replaced
    # rating barely moves the humans' alpha)
    monkeypatch.setattr(analysis, "largest_safe_fraction", lambda curve, band: 1.0)
    reverse = {item: 5 - value for item, value in small_data.ratings["a"].items()}
    copy = dict(small_data.ratings["a"])
    models = [
        ModelRater("contrary", reverse, dict.fromkeys(reverse, 0.9)),
        ModelRater("copy", copy, dict.fromkeys(copy, 0.9)),
    ]
    result = analyse_task(
        "toy", small_data, models, band_repetitions=30, repetitions=5, fractions=(0.5, 1.0)
    )
    assert result.safe_fraction == {"contrary": 0.0, "copy": 1.0}
    assert result.effort["contrary"]["overall"] == 0.0
    [line] = result.problems
    assert line.startswith("toy: no fraction is safe for 'contrary': its mean alpha with the")
