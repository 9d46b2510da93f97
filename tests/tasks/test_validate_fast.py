"""The compiled validator (jsonschema-rs) is only a fast path: whenever it accepts a document,
jsonschema (whose messages seebench reports) must accept it too, or a bad task would pass."""

from __future__ import annotations

import copy

import jsonschema
from hypothesis import HealthCheck, given, settings

from seebench.tasks import validate
from tests.tasks.test_validate_fuzz import BASE, REGISTRY, mutated_documents


def _both_verdicts(document):
    type_name = document.get("type") if isinstance(document.get("type"), str) else ""
    slow = validate._validator(REGISTRY, type_name)
    return validate._surely_valid(document, REGISTRY, type_name), not any(
        True for _ in slow.iter_errors(document)
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_documents())
def test_the_fast_path_never_accepts_what_jsonschema_refuses(document):
    fast_ok, slow_ok = _both_verdicts(document)
    assert slow_ok or not fast_ok


def test_the_fast_path_accepts_a_valid_task_and_refuses_classic_mistakes():
    assert _both_verdicts(copy.deepcopy(BASE)) == (True, True)
    unknown = {**copy.deepcopy(BASE), "colour": "blue"}
    missing = {k: v for k, v in copy.deepcopy(BASE).items() if k != "name"}
    wrong_type = {**copy.deepcopy(BASE), "labels": "fix, feature"}
    for document in (unknown, missing, wrong_type):
        assert _both_verdicts(document) == (False, False)


def test_problems_are_still_jsonschemas_one_liners_when_the_fast_path_refuses():
    document = {**copy.deepcopy(BASE), "colour": "blue"}
    problems = validate.schema_problems(document, REGISTRY, "t.yaml")
    assert problems == ["t.yaml: colour: unknown key 'colour'"]


def test_a_value_the_compiled_validator_cannot_read_goes_the_slow_way():
    import datetime

    document = {**copy.deepcopy(BASE), "description": datetime.date(2024, 1, 1)}
    slow = validate._validator(REGISTRY, document["type"])
    expected = bool(list(slow.iter_errors(document)))
    assert bool(validate.schema_problems(document, REGISTRY, "t.yaml")) == expected
    assert isinstance(slow, jsonschema.protocols.Validator)
