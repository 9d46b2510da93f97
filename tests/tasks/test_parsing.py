"""Reading answers: tolerant of case, spacing and decoration; strict about what is a label."""

from __future__ import annotations

import pytest

from seebench.plugin_manager import get_registry
from seebench.tasks.parsing import parse_answer
from seebench.tasks.spec import TaskSpec


def task(task_type: str, labels=(), **extra) -> TaskSpec:
    document = {
        "name": "t",
        "suite": "s",
        "version": 1,
        "type": task_type,
        "metrics": ["accuracy"],
        "data": {"sources": [{"path": "x", "format": "jsonl"}]},
        **extra,
    }
    if labels:
        document["labels"] = list(labels)
    type_object = get_registry().task_type(task_type).load()
    return TaskSpec.from_document(document, path=None, type_object=type_object)


BINARY = task(
    "binary",
    [
        {"name": "yes", "value": 1, "synonyms": ["functional"]},
        {"name": "no", "value": 0, "synonyms": ["non-functional"]},
    ],
)
MULTICLASS = task(
    "multiclass",
    [{"name": "fix"}, {"name": "new feature", "synonyms": ["feature"]}, {"name": "refactor"}],
)
MULTILABEL = task(
    "multilabel",
    [{"name": "ui"}, {"name": "performance", "synonyms": ["perf"]}, {"name": "input/output"}],
)
REGRESSION = task("regression", value_range=[1, 100])


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("yes", "yes"),
        ("  YES \n", "yes"),
        ("Yes.", "yes"),
        ("**No**", "no"),
        ("'no'", "no"),
        ("Label: yes", "yes"),
        ("Answer: No", "no"),
        ("No, it describes a quality.", "no"),
        ("functional", "yes"),
        ("Non-Functional", "no"),
        ("1", "yes"),
        ("0", "no"),
        ("It is non-functional.", "no"),
        ("- yes: it describes a behaviour", "yes"),
    ],
)
def test_binary_labels_are_read_case_and_space_tolerant_with_synonyms(reply, expected):
    parsed = parse_answer(BINARY, reply)
    assert parsed.valid and parsed.value == expected


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("", "empty reply"),
        ("   ", "empty reply"),
        ("maybe", "no label in reply"),
        ("It could be functional or non-functional.", "ambiguous reply: mentions yes, no"),
        ("yesterday", "no label in reply"),
    ],
)
def test_unreadable_binary_replies_are_errors_with_a_reason(reply, reason):
    parsed = parse_answer(BINARY, reply)
    assert parsed.value is None and parsed.error == reason


def test_missing_reply_is_an_error():
    assert parse_answer(BINARY, None).error == "no reply"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("feature", "new feature"),
        ("New Feature", "new feature"),
        ("  REFACTOR", "refactor"),
        ("The commit is a fix for a crash", "fix"),
    ],
)
def test_multiclass(reply, expected):
    assert parse_answer(MULTICLASS, reply).value == expected


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("ui, performance", ["ui", "performance"]),
        ("Performance and UI", ["ui", "performance"]),
        ("perf; input/output", ["performance", "input/output"]),
        ("- ui\n- perf", ["ui", "performance"]),
        ("none", []),
        ("None.", []),
        ("Labels: ui", ["ui"]),
        ('["ui", "perf"]', ["ui", "performance"]),
        ("ui, ui", ["ui"]),
    ],
)
def test_multilabel_lists(reply, expected):
    parsed = parse_answer(MULTILABEL, reply)
    assert parsed.valid and parsed.value == expected


def test_multilabel_with_an_unknown_item_is_invalid():
    parsed = parse_answer(MULTILABEL, "ui, colours")
    assert parsed.value is None and parsed.error == "not a label: 'colours'"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("5", 5.0),
        (" 13 ", 13.0),
        ("Value: 8.5", 8.5),
        ("About 21 points.", 21.0),
        ("1", 1.0),
        ("100", 100.0),
    ],
)
def test_numbers_in_range(reply, expected):
    parsed = parse_answer(REGRESSION, reply)
    assert parsed.valid and parsed.value == expected


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ("large", "no number in reply"),
        ("0", "out of range: 0 not in [1, 100]"),
        ("250", "out of range: 250 not in [1, 100]"),
    ],
)
def test_numbers_outside_the_range_or_missing_are_invalid(reply, reason):
    parsed = parse_answer(REGRESSION, reply)
    assert parsed.value is None and parsed.error == reason


def test_types_without_a_parser_are_errors():
    assert (
        parse_answer(task("ner", [{"name": "PER"}]), "PER").error
        == "tasks of type 'ner' cannot be answered by prompting"
    )
