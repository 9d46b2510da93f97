"""Joining the released responses and human scores into judging items."""

from __future__ import annotations

import pytest

from seebench.data.readers import read_jsonl
from seebench.suites.judge.readers import JudgeDataError
from seebench.suites.judge.rows import join_released


def _rows(inputs, human):
    rows = [
        {
            "lang": "C++, Java",
            "input": text,
            "gold": "g",
            "llm": f"m{i}",
            "output": f"o{i}",
            "index": 7,
            "_source": "responses",
        }
        for i, text in enumerate(inputs)
    ]
    return rows + [{"value": v, "_source": "human"} for v in human]


def test_scoring_items_carry_response_reference_languages_and_group():
    items = join_released(_rows(["a", "a", "b"], [3, 4.5, 1]), variant="scoring")
    assert [i["unit"] for i in items] == ["0-0", "0-1", "1-2"]
    assert items[1]["input"] == {
        "task_input": "a",
        "reference": "g",
        "languages": ["C++", "Java"],
        "response": "o1",
        "llm": "m1",
    }
    assert [i["target"] for i in items] == [
        {"human": 3.0, "input_group": 0},
        {"human": 4.5, "input_group": 0},
        {"human": 1.0, "input_group": 1},
    ]


def test_comparison_items_are_ordered_pairs():
    items = join_released(_rows(["a", "a"], [1.5, -1.5]), variant="comparison")
    assert [i["unit"] for i in items] == ["0-0-1", "0-1-0"]
    assert items[1]["input"]["first"] == "o1" and items[1]["input"]["second"] == "o0"
    assert items[1]["target"] == {"human": -1.5, "input_group": 0, "pair": [1, 0]}


def test_other_sources_are_released_scores_kept_per_item():
    rows = _rows(["a", "a"], [1, 2]) + [{"value": v, "_source": "gpt4o"} for v in (4, -1)]
    items = join_released(rows, variant="scoring")
    assert [i["released"] for i in items] == [{"gpt4o": 4.0}, {"gpt4o": -1.0}]
    with pytest.raises(JudgeDataError, match="source 'gpt4o' has 1 scores"):
        join_released(rows[:-1], variant="scoring")


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (_rows(["a", "a"], [1]), "1 scores for 2 items"),
        (_rows(["a"], ["x"]), "row 1: 'x' is not a number"),
        (_rows(["a"], [])[:1], "no rows from source 'human'"),
    ],
)
def test_problems_are_one_line_naming_the_source(rows, message):
    with pytest.raises(JudgeDataError, match=message):
        join_released(rows, variant="scoring")


def test_the_real_files_join_through_the_generic_jsonl_reader(mirror):
    for variant, count in (("scoring", 150), ("comparison", 300)):
        folder = mirror / f"codexglue_{variant}"
        rows = [
            {**r, "_source": "responses"} for r in read_jsonl(folder / "test-D-responded.jsonl")
        ]
        rows += [{**r, "_source": "human"} for r in read_jsonl(folder / "test-0-human.jsonl")]
        items = join_released(rows, variant=variant)
        assert len(items) == count and len({i["unit"] for i in items}) == count
