from __future__ import annotations

import copy

import pytest

from seebench.data.dataset import DataError
from seebench.suites.annotation.task_config import check_ratings_block, ratings_from_config

BLOCK = {
    "layout": "long",
    "source": "ratings",
    "level": "ordinal",
    "scale": [{"value": 1, "label": "bad"}, {"value": 2, "label": "good"}],
    "options": {"item": ["item"], "rater": "rater", "rating": "score"},
}


def _with(**changes):
    block = copy.deepcopy(BLOCK)
    for key, value in changes.items():
        if value is None:
            block.pop(key)
        else:
            block[key] = value
    return block


def test_block_reads_its_source_and_samples(tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("item,rater,score\nx,1,1\nx,2,2\ny,1,2\ny,2,2\nz,1,1\n")
    data = ratings_from_config(BLOCK, {"ratings": path}, task="toy")
    assert data.level == "ordinal" and len(data.items) == 3
    sampled = ratings_from_config(
        _with(sample={"size": 1, "seed": 3}), {"ratings": path}, task="toy"
    )
    assert len(sampled.items) == 1 and sampled.item_ids[0] in {"x", "y"}


@pytest.mark.parametrize(
    "block, message",
    [
        (_with(level=None), "task 'toy': ratings: 'level' is a required property"),
        (_with(level="categorical"), "task 'toy': ratings.level: 'categorical' is not one of"),
        (_with(source=None), "task 'toy': ratings.source: required for layout 'long'"),
        (_with(scale=[{"value": 1, "label": "x"}]), "ratings.scale: .* is too short"),
        (_with(layout="tall"), "ratings.layout: 'tall' is not one of"),
    ],
)
def test_bad_blocks_are_one_line_errors(block, message):
    with pytest.raises(DataError, match=message) as excinfo:
        check_ratings_block(block, task="toy")
    assert "\n" not in str(excinfo.value)


def test_unknown_source_names_the_known_ones(tmp_path):
    with pytest.raises(
        DataError, match=r"ratings.source: no data source named 'ratings' \(sources: other\)"
    ):
        ratings_from_config(BLOCK, {"other": tmp_path / "x.csv"}, task="toy")
    joined = _with(
        layout="joined",
        source=None,
        level="nominal",
        options={"key": "id", "rating": "label", "groups": {"g": {"p1": "nope"}}},
    )
    with pytest.raises(DataError, match="ratings.options.groups.g.p1: no data source named 'nope'"):
        ratings_from_config(joined, {}, task="toy")
