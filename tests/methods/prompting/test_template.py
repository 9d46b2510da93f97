"""Prompts follow the SELU base template: setting, task, answer format, label definitions,
examples (the stored shots of the test instance), then the instance to classify."""

from __future__ import annotations

import pytest

from seebench.cli.main import main
from seebench.data.dataset import Sample, load_task_data
from seebench.methods.prompting.method import build_prompts
from seebench.methods.prompting.template import build_prompt
from tests.methods.prompting.conftest import make_prompt_task
from tests.tasks.test_parsing import BINARY, MULTILABEL, REGRESSION, task

COMMITS = task(
    "multiclass",
    [
        {"name": "fix", "description": "Repairs behaviour"},
        {"name": "feature", "description": "Adds behaviour."},
    ],
    prompt={
        "context": "Commit messages of open-source projects",
        "task": "Say why the commit was made",
        "answer_format": "Answer with one label only.",
        "entity": "commit message",
        "system": "You label commits.",
    },
)


def test_sections_come_in_template_order_with_shots():
    shots = [Sample("s1", "Add login page", "feature"), Sample("s2", "Fix crash", "fix")]
    prompt = build_prompt(COMMITS, Sample("t", "Fix race in cache", "fix"), shots)
    assert prompt.messages[0] == {"role": "system", "content": "You label commits."}
    text = prompt.messages[1]["content"]
    order = [
        "Setting: Commit messages of open-source projects.",
        "Task: Say why the commit was made.",
        "Answer format: Answer with one label only.",
        "What each label means:",
        "- fix: Repairs behaviour.",
        "- feature: Adds behaviour.",
        "---",
        "Solved examples of this classification task:",
        "Example 1",
        "Commit message: Add login page",
        "Label: feature",
        "Example 2",
        "Commit message: Fix crash",
        "Label: fix",
        "---",
        "Commit message to classify: Fix race in cache",
        "Label:",
    ]
    position = 0
    for part in order:  # each part is found after the previous one
        position = text.index(part, position) + len(part)
    assert text.endswith("Label:") and prompt.shot_ids == ("s1", "s2")


def test_zero_shot_has_no_examples_section():
    text = build_prompt(COMMITS, Sample("t", "Fix race", "fix")).messages[-1]["content"]
    assert "Example" not in text and text.count("---") == 1


def test_defaults_when_the_prompt_block_is_sparse():
    text = build_prompt(BINARY, Sample("t", "The system shall log in users", "yes")).messages[0][
        "content"
    ]
    assert "Answer format: Reply with exactly one label, chosen from: yes, no." in text
    assert "Text to classify: The system shall log in users" in text
    regression = build_prompt(REGRESSION, Sample("t", "Story", 5.0), [Sample("s", "Other", 8.0)])
    content = regression.messages[0]["content"]
    assert "a single number between 1 and 100" in content and "Value: 8" in content
    assert "Text to estimate: Story" in content and "estimation task" in content


def test_multilabel_shots_show_label_lists_and_none():
    shots = [Sample("a", "slow page", ["ui", "performance"]), Sample("b", "typo", [])]
    text = build_prompt(MULTILABEL, Sample("t", "x", []), shots).messages[0]["content"]
    assert "Labels: ui, performance" in text and "Labels: none" in text


def test_label_definitions_can_be_turned_off():
    spec = task(
        "binary",
        [{"name": "yes", "description": "secret"}, {"name": "no"}],
        prompt={"label_definitions": False},
    )
    text = build_prompt(spec, Sample("t", "x", "yes")).messages[0]["content"]
    assert "secret" not in text and "Possible labels: yes, no." in text


def test_prompts_use_the_stored_shots_of_each_test_instance(task_env):
    registry, tasks, _ = task_env
    make_prompt_task(tasks, "shots_task", "binary", [f"query {i}" for i in range(4)])
    from seebench.tasks.index import build_task_index

    spec = build_task_index(registry).get("shots_task")
    data = load_task_data(spec, registry)
    prompts = build_prompts(spec, data, 3, seed=42)
    by_id = data.by_id()
    for prompt, sample in zip(prompts, data.test, strict=True):
        assert list(prompt.shot_ids) == data.shots[sample.id][:3]
        for shot_id in prompt.shot_ids:
            assert f"Issue: {by_id[shot_id].input}" in prompt.messages[-1]["content"]
    five = build_prompts(spec, data, 5, seed=42)  # more than stored: drawn afresh, seeded
    assert all(len(p.shot_ids) == 5 for p in five)
    assert five == build_prompts(spec, data, 5, seed=42)


def test_tasks_show_prompt_previews_a_real_test_instance(task_env, monkeypatch, capsys):
    make_prompt_task(task_env[1], "preview_task", "binary", ["first query", "second query"])
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    with pytest.raises(SystemExit) as exit_info:
        main(["tasks", "show", "preview_task", "--prompt", "--shots", "2"])
    out = capsys.readouterr().out
    assert exit_info.value.code in (0, None)
    assert "preview_task: test instance" in out and "2 shot(s)" in out
    assert "--- user ---" in out and "Issue to classify: first query" in out


def test_tasks_show_prompt_says_in_one_line_when_data_is_missing(task_env, monkeypatch, capsys):
    make_prompt_task(task_env[1], "nodata", "binary", ["q"])
    (task_env[1] / "nodata.test.jsonl").unlink()
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    with pytest.raises(SystemExit) as exit_info:
        main(["tasks", "show", "nodata", "--prompt"])
    out = capsys.readouterr().out.strip()
    assert exit_info.value.code == 1 and len(out.splitlines()) == 1 and "no data" in out
