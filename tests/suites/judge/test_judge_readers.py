"""Reading the study's released files, and one clear line for every malformed one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.suites.judge.readers import (
    JudgeDataError,
    load_released_task,
    ordered_pairs,
    read_responses,
    read_score_lines,
)

SCORING = ("codetransocean_scoring", "codexglue_scoring", "complexcodeeval_scoring")
COMPARISON = tuple(name.replace("scoring", "comparison") for name in SCORING)


def _response(i: int, input_text: str) -> dict:
    return {
        "lang": "Java",
        "input": input_text,
        "gold": "g",
        "llm": "m",
        "output": f"o{i}",
        "index": i,
    }


def _write_task(root: Path, name: str, inputs: list[str], human: list[str], **methods: list[str]):
    folder = root / name
    folder.mkdir()
    rows = [json.dumps(_response(i, text)) for i, text in enumerate(inputs)]
    (folder / "test-D-responded.jsonl").write_text("\n".join(rows) + "\n")
    (folder / "test-0-human.jsonl").write_text("\n".join(human) + "\n")
    for stem, values in methods.items():
        (folder / f"{stem}.jsonl").write_text("\n".join(values) + "\n")
    return folder


def test_a_scoring_task_lines_up_responses_humans_and_methods(tmp_path):
    folder = _write_task(
        tmp_path,
        "toy_scoring",
        ["a", "a", "b", "b"],
        ["1", "2", "3", "4.5"],
        **{"test-4-7-gpt4o": ["1", "2", "-1", "5"]},
    )
    task = load_released_task(folder)
    assert task.variant == "scoring"
    assert task.input_ids == [0, 0, 1, 1]
    assert task.human == [1.0, 2.0, 3.0, 4.5]
    assert task.methods == {"gpt4o": [1.0, 2.0, -1.0, 5.0]}


def test_a_comparison_task_has_one_line_per_ordered_pair(tmp_path):
    folder = _write_task(tmp_path, "toy_comparison", ["a", "a", "b", "b"], ["1", "-1", "0", "0"])
    task = load_released_task(folder)
    assert task.pairs() == [(0, 0, 1), (0, 1, 0), (1, 2, 3), (1, 3, 2)]
    assert task.unit_input_ids() == [0, 0, 1, 1]


def test_ordered_pairs_follow_the_study_order_for_three_responses():
    assert [(j, k) for _, j, k in ordered_pairs([0, 0, 0])] == [
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 2),
        (2, 0),
        (2, 1),
    ]


def test_a_bad_score_line_names_file_and_line(tmp_path):
    path = tmp_path / "scores.jsonl"
    path.write_text("1.0\n2.5\nfour\n")
    with pytest.raises(JudgeDataError, match=r"scores\.jsonl:3: not a number: 'four'"):
        read_score_lines(path)
    path.write_text("1\nnan\n")
    with pytest.raises(JudgeDataError, match=r"scores\.jsonl:2: not a finite number"):
        read_score_lines(path)


def test_a_bad_response_line_names_file_line_and_key(tmp_path):
    path = tmp_path / "test-D-responded.jsonl"
    row = _response(0, "x")
    del row["gold"]
    path.write_text(json.dumps(_response(1, "x")) + "\n" + json.dumps(row) + "\n")
    with pytest.raises(JudgeDataError, match=r"responded\.jsonl:2: missing key\(s\) gold"):
        read_responses(path)
    path.write_text("{not json\n")
    with pytest.raises(JudgeDataError, match=r"responded\.jsonl:1: not JSON"):
        read_responses(path)
    path.write_text(json.dumps({**_response(0, "x"), "index": "3"}) + "\n")
    with pytest.raises(JudgeDataError, match="'index' must be an integer"):
        read_responses(path)


def test_a_method_file_of_the_wrong_length_is_reported(tmp_path):
    folder = _write_task(
        tmp_path, "toy_scoring", ["a", "a"], ["1", "2"], **{"test-1-1-bleu": ["1", "2", "3"]}
    )
    with pytest.raises(JudgeDataError, match=r"test-1-1-bleu\.jsonl: 3 lines, expected 2"):
        load_released_task(folder)


def test_responses_to_one_input_must_be_adjacent(tmp_path):
    folder = _write_task(tmp_path, "toy_scoring", ["a", "b", "a"], ["1", "2", "3"])
    with pytest.raises(JudgeDataError, match="must be adjacent"):
        load_released_task(folder)


def test_unknown_methods_and_variants_are_errors(tmp_path):
    folder = _write_task(tmp_path, "toy_scoring", ["a"], ["1"], **{"test-4-9-mystery": ["1"]})
    with pytest.raises(JudgeDataError, match="unknown judging method 'mystery'"):
        load_released_task(folder)
    other = _write_task(tmp_path, "toy_other", ["a"], ["1"])
    with pytest.raises(JudgeDataError, match="_scoring or _comparison"):
        load_released_task(other)


@pytest.mark.parametrize("name", SCORING + COMPARISON)
def test_every_released_task_reads_cleanly(released, name):
    task = released(name)
    assert len(task.responses) == 150
    assert len(set(task.input_ids)) == 50
    assert len(task.human) == (150 if name in SCORING else 300)
    expected = 18 if name in SCORING else 9
    assert len(task.methods) == expected
    assert all(len(values) == len(task.human) for values in task.methods.values())


def test_comparison_humans_are_differences_of_the_scoring_humans(released):
    """The comparison files judge the same responses: each human value is a score difference."""
    for scoring in SCORING:
        scores = released(scoring).human
        comparison = released(scoring.replace("scoring", "comparison"))
        expected = [scores[j] - scores[k] for _, j, k in comparison.pairs()]
        assert comparison.human == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("reader", [read_responses, read_score_lines])
def test_a_fifo_in_place_of_a_file_is_one_clear_error_not_a_hang(tmp_path, reader):
    import os

    path = tmp_path / "test-D-responded.jsonl"
    os.mkfifo(path)  # a plain open would wait for a writer forever
    with pytest.raises(JudgeDataError, match=r"responded\.jsonl.*not a regular file"):
        reader(path)
