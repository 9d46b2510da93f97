"""Study definitions: the shipped RealHumanEval study, validation errors, assignment, max_tokens."""

from __future__ import annotations

import random
import textwrap
from collections import Counter

import pytest
from seebench_study.definition import (
    MaxTokens,
    StudyError,
    balanced_pick,
    find_study,
    load_study,
    read_document,
    shipped_studies,
)

from seebench.errors import DataMissingError


def test_the_shipped_study_validates_and_names_the_missing_data(isolated_home) -> None:
    assert "realhumaneval" in shipped_studies()
    document = read_document(find_study("realhumaneval"))
    assert len(document["task_sets"]) == 5
    with pytest.raises(DataMissingError, match="seebench study import-data realhumaneval"):
        load_study("realhumaneval")


def test_realhumaneval_loads_its_17_tasks_in_five_sets(rhe_tasks) -> None:
    study = load_study("realhumaneval")
    assert len(study.tasks) == 17
    assert {len(s) for s in study.task_sets} == {8}
    assert {s[:2] for s in study.task_sets} == {("sum_product", "even_odd_count")}
    assert [c.kind for c in study.conditions] == ["none", "autocomplete", "chat"]
    assert study.session_s == 35 * 60 and study.skip_after_s == 10 * 60
    assert study.chat_max_tokens == 512 and study.pause_ms == 2000
    public = study.tasks["sum_product"].public()
    assert set(public) == {"name", "description", "starter"}  # never the hidden tests
    assert public["starter"].startswith("def sum_product(numbers):")


def _write(tmp_path, text: str):
    path = tmp_path / "bad.yaml"
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def test_invalid_definitions_get_one_line_per_problem(tmp_path) -> None:
    path = _write(
        tmp_path,
        """
        name: bad
        tasks: {source: {sha256: nothex, format: csv}}
        task_sets: [[a]]
        conditions:
          - {id: x, kind: autocomplete}
          - {id: x, kind: telepathy}
        colour: blue
        """,
    )
    with pytest.raises(StudyError) as caught:
        load_study(str(path))
    lines = str(caught.value).splitlines()
    assert all(line.startswith(f"{path}: ") for line in lines)
    text = str(caught.value)
    assert "tasks.source.sha256" in text
    assert "conditions.1.kind" in text
    assert any("colour" in line for line in lines)  # the unknown key is named
    assert "condition id 'x' is used twice" in text
    assert "conditions.0: a autocomplete condition needs a model" in text


def test_unknown_study_name_suggests_the_shipped_one() -> None:
    with pytest.raises(StudyError, match="did you mean 'realhumaneval'"):
        find_study("realhumaneva")


def test_max_tokens_follow_the_truncated_normal() -> None:
    rng = random.Random(0)
    draws = [MaxTokens().draw(rng) for _ in range(4000)]
    assert min(draws) >= 10 and max(draws) <= 120
    assert 62 < sum(draws) / len(draws) < 66
    assert MaxTokens(mean=500, sd=0, low=10, high=120).draw(rng) == 120


def test_balanced_assignment_fills_the_smallest_arm() -> None:
    rng = random.Random(0)
    counts = {"a": 0, "b": 0, "c": 0}
    picks = Counter()
    for _ in range(30):
        pick = balanced_pick(counts, rng)
        counts[pick] += 1
        picks[pick] += 1
    assert set(picks.values()) == {10}
