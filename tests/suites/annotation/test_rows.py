from __future__ import annotations

import pytest

from seebench.data.dataset import DataError, Sample
from seebench.suites.annotation.rows import check_target, data_from_samples, ratings_rows

SCALE = [{"value": 1, "label": "low"}, {"value": 2, "label": "high"}]


def _source_rows():
    return [
        {"_source": "ratings", "item": "x", "rater": "a", "score": 1, "text": "X"},
        {"_source": "ratings", "item": "x", "rater": "b", "score": 2, "text": "X"},
        {"_source": "ratings", "item": "y", "rater": "a", "score": 2, "text": "Y"},
    ]


def test_step_turns_source_rows_into_item_rows_and_back():
    rows = ratings_rows(
        _source_rows(),
        layout="long",
        level="ordinal",
        scale=SCALE,
        options={"item": ["item"], "rater": "rater", "rating": "score", "fields": ["text"]},
    )
    assert rows[0] == {
        "input": {"id": "x", "fields": {"text": "X"}},
        "target": {"ratings": {"a": 1, "b": 2}, "scale": SCALE, "level": "ordinal"},
    }
    samples = [
        Sample(f"s{i}", row["input"], check_target(row["target"])) for i, row in enumerate(rows)
    ]
    data = data_from_samples(samples)
    assert data.item_ids == ["x", "y"] and data.ratings == {"a": {"x": 1, "y": 2}, "b": {"x": 2}}
    assert data.level == "ordinal"


def test_step_errors_name_the_source_row_and_column():
    rows = _source_rows()
    rows[2]["score"] = 3
    with pytest.raises(
        DataError, match=r"ratings row 3 column 'score': 3 is not on the scale \[1, 2\]"
    ):
        ratings_rows(
            rows,
            layout="long",
            level="ordinal",
            scale=SCALE,
            options={"item": ["item"], "rater": "rater", "rating": "score"},
        )
    with pytest.raises(DataError, match="is not one of nominal"):
        ratings_rows(_source_rows(), layout="long", level="likert", scale=SCALE, options={})


@pytest.mark.parametrize(
    "target, message",
    [
        ({"ratings": {}}, "needs keys ratings, scale and level"),
        (
            {"ratings": {"a": 5}, "scale": SCALE, "level": "ordinal"},
            "rater 'a': 5 is not on the scale",
        ),
        (
            {
                "ratings": {},
                "scale": [{"value": "x", "label": "x"}, {"value": "y", "label": "y"}],
                "level": "interval",
            },
            "needs numeric scale values",
        ),
    ],
)
def test_check_target_rejects_malformed_targets(target, message):
    with pytest.raises(DataError, match=message):
        check_target(target)


def test_samples_must_share_scale_and_level():
    first = Sample(
        "a", {"id": "a", "fields": {}}, {"ratings": {"r": 1}, "scale": SCALE, "level": "ordinal"}
    )
    second = Sample(
        "b", {"id": "b", "fields": {}}, {"ratings": {"r": 1}, "scale": SCALE, "level": "nominal"}
    )
    with pytest.raises(DataError, match="sample 'b': scale or level differs"):
        data_from_samples([first, second])
