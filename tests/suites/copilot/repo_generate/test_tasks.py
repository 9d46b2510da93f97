"""The repository-level generate tasks load, validate and register their pieces."""

from __future__ import annotations

import pytest

from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.index import build_task_index

TASKS = [f"copilot_repo_generate_{language}" for language in ("python", "javascript", "typescript")]


@pytest.fixture(scope="module")
def index():
    return build_task_index(build_registry(create_plugin_manager()))


@pytest.mark.parametrize("name", TASKS)
def test_tasks_belong_to_the_repository_suite_with_their_language(index, name):
    task = index.get(name)
    assert task.suite == "copilot_repo"
    assert task.raw["language"] == name.rsplit("_", 1)[1]
    assert task.behaviour.answer_format(task).instruction.count(f"```{task.raw['language']}") == 1
    assert task.raw["data"]["sources"][0]["format"] == "copilot_repo_generate"
