"""Task validation: schema and registry checks, one line per problem naming file and key."""

from __future__ import annotations

import pytest

from seebench.errors import TaskSpecError
from seebench.plugin_manager import get_registry
from seebench.tasks.validate import load_task, validate_document
from tests.conftest import write_task

VALID = """
name: tiny
suite: demo
version: 1
type: binary
labels:
  - {name: "yes", value: 1, description: positive}
  - {name: "no", value: 0}
tags: {family: demo, activity: testing}
data:
  sources:
    - {path: tiny.jsonl, format: jsonl}
  prepare:
    - {step: select, columns: {input: text, target: label}}
split: {test_size: 0.25, seed: 1}
metrics: [f1_macro, accuracy]
prompt: {task: Decide., entity: text}
"""


def problems_of(tmp_path, body: str) -> list[str]:
    path = write_task(tmp_path, "tiny", body)
    try:
        load_task(path, get_registry())
    except TaskSpecError as exc:
        return exc.problems
    return []


def test_valid_task_loads(tmp_path):
    path = write_task(tmp_path, "tiny", VALID)
    spec = load_task(path, get_registry())
    assert spec.name == "tiny" and spec.version == "1" and spec.primary_metric == "f1_macro"
    assert spec.label_names == ["yes", "no"]


def test_unknown_key_is_named(tmp_path):
    (problem,) = problems_of(tmp_path, VALID + "colour: blue\n")
    assert problem.endswith("tiny.yaml: colour: unknown key 'colour'")


def test_unknown_nested_key_is_named(tmp_path):
    body = VALID.replace(
        "prompt: {task: Decide., entity: text}", "prompt: {task: Decide., entty: text}"
    )
    (problem,) = problems_of(tmp_path, body)
    assert "prompt.entty: unknown key 'entty'" in problem


def test_wrong_type_is_named(tmp_path):
    body = VALID.replace("split: {test_size: 0.25, seed: 1}", "split: {test_size: big, seed: 1}")
    (problem,) = problems_of(tmp_path, body)
    assert "split.test_size:" in problem and "'big'" in problem


def test_unknown_task_type(tmp_path):
    (problem,) = problems_of(tmp_path, VALID.replace("type: binary", "type: binery"))
    assert "type: unknown task type 'binery'" in problem


def test_unknown_metric_lists_known_ones(tmp_path):
    (problem,) = problems_of(tmp_path, VALID.replace("[f1_macro, accuracy]", "[f1_macro, f2]"))
    assert "metrics[1]: unknown metric 'f2'; metrics for type 'binary':" in problem
    listed = problem.split("metrics for type 'binary': ")[1]
    assert "f1_micro" in listed and "fix_rate" not in listed  # no Copilot metrics


def test_metric_not_applicable_to_type(tmp_path):
    (problem,) = problems_of(tmp_path, VALID.replace("[f1_macro, accuracy]", "[one_minus_smape]"))
    assert "metric 'one_minus_smape' does not apply to task type 'binary'" in problem
    listed = problem.split("use one of: ")[1]
    assert "accuracy" in listed and "fix_rate" not in listed and "doc_" not in listed


def test_unknown_prepare_step_and_bad_option(tmp_path):
    body = VALID.replace(
        "- {step: select, columns: {input: text, target: label}}",
        "- {step: selekt}\n    - {step: select, colums: {}}",
    )
    problems = problems_of(tmp_path, body)
    assert any("data.prepare[0].step: unknown preparation step 'selekt'" in p for p in problems)
    assert any("data.prepare[1]" in p and "colums" in p for p in problems)


def test_regression_requires_value_range(tmp_path):
    body = VALID.replace("type: binary", "type: regression").replace(
        "[f1_macro, accuracy]", "[one_minus_smape]"
    )
    problems = problems_of(tmp_path, body)
    assert any("'value_range' is required" in p for p in problems)


def test_several_problems_one_line_each(tmp_path):
    body = VALID.replace("version: 1", "version: -3") + "extra: 1\n"
    problems = problems_of(tmp_path, body)
    assert len(problems) == 2
    assert all("\n" not in p and "tiny.yaml" in p for p in problems)


def test_duplicate_label_names(tmp_path):
    body = VALID.replace('- {name: "no", value: 0}', '- {name: "yes", value: 0}')
    assert any("duplicate label 'yes'" in p for p in problems_of(tmp_path, body))


@pytest.mark.parametrize("document", [None, [], "text", 3])
def test_non_mapping_documents(document):
    problems = validate_document(document, get_registry(), "f.yaml")
    assert problems and all(p.startswith("f.yaml: ") for p in problems)


def test_key_with_line_break_stays_on_one_line(tmp_path):
    problems = problems_of(tmp_path, VALID + '"bad\\nkey": 1\n')
    assert problems and all("\n" not in p for p in problems)
    assert any("bad\\nkey" in p for p in problems)
