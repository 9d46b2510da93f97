"""The 22 SELU task definitions and the generated table in docs/tasks/selu.md."""

from __future__ import annotations

from collections import Counter

from seebench.plugin_manager import get_task_index
from seebench.suites.selu.doc_table import BEGIN, END, task_rows
from tests.conftest import REPO_ROOT

EXPECTED_TYPES = {
    "binary": {
        "bug_issue",
        "functional_requirement",
        "incivility",
        "quality_requirement",
        "safety_issue",
        "security_requirement",
        "tone_bearing",
    },
    "multiclass": {
        "closed_question",
        "commit_intention",
        "issue_intention",
        "issue_type",
        "question_quality",
        "review_type",
        "sentiment",
    },
    "multilabel": {
        "comment_type_java",
        "comment_type_pharo",
        "comment_type_python",
        "review_aspect",
        "smell_doc",
    },
    "regression": {"story_points"},
    "ner": {"se_entities"},
    "mlm": {"requirement_completion"},
}
PRIMARY = {
    "binary": "f1_macro",
    "multiclass": "f1_macro",
    "multilabel": "f1_macro",
    "regression": "one_minus_smape",
    "ner": "entity_f1_micro",
    "mlm": "masked_accuracy",
}


def selu_tasks() -> dict:
    index = get_task_index()
    assert not [b for b in index.broken if b.suite == "selu"]
    return {t.name: t for t in index.tasks.values() if t.suite == "selu"}


def test_all_22_tasks_with_type_metric_family_activity_and_prompt() -> None:
    tasks = selu_tasks()
    assert {
        k: {n for n, t in tasks.items() if t.type == k} for k in EXPECTED_TYPES
    } == EXPECTED_TYPES
    for task in tasks.values():
        assert task.primary_metric == PRIMARY[task.type], task.name
        assert task.family and task.activity, task.name
        assert {"context", "task", "answer_format", "entity"} <= set(task.prompt), task.name
        assert all(label.description for label in task.labels), task.name
        assert all(s.get("url") and s.get("sha256") for s in task.data["sources"]), task.name
    assert Counter(t.family for t in tasks.values()) == {
        "code-adjacent metadata": 9,
        "core non-code": 8,
        "developer communication": 5,
    }
    assert len(tasks["se_entities"].labels) == 20
    assert tasks["story_points"].value_range == (1.0, 100.0)


def test_text_cleaning_is_applied_except_to_ner_and_mlm() -> None:
    for task in selu_tasks().values():
        steps = [s["step"] for s in task.data.get("prepare", [])]
        assert ("selu_clean_text" in steps) == (task.type not in ("ner", "mlm")), task.name


def test_docs_table_lists_every_task_as_generated_from_the_yamls() -> None:
    text = (REPO_ROOT / "docs" / "tasks" / "selu.md").read_text()
    table = text.split(BEGIN, 1)[1].split(END, 1)[0]
    for row in task_rows(list(selu_tasks().values())):
        name, task_type, labels = row[:3]
        assert f"| {name} | {task_type} | {labels} |" in table, name
