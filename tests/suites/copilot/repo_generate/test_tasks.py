"""The repository-level generate tasks load, validate and register their pieces."""

from __future__ import annotations

import pytest

from seebench.data.file_sets import FileSet
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.suites.copilot.repo_generate.items import (
    ITEMS_FILE,
    list_digest,
    read_repo_generate_items,
)
from seebench.suites.copilot.repo_generate.listing import pin_tasks
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


def test_the_tasks_pin_the_shipped_item_list(index):
    digest = list_digest(ITEMS_FILE)
    for name in TASKS:
        options = index.get(name).raw["data"]["sources"][0]["options"]
        assert options["items_sha256"] == digest, f"{name}: run the item list script"


def test_a_list_that_is_not_the_pinned_one_is_refused(tmp_path):
    listed = tmp_path / "items.jsonl"
    listed.write_text("")
    with pytest.raises(ValueError, match="items.jsonl: sha256 e3b0c442.*the task expects 0000"):
        read_repo_generate_items(
            FileSet(listed, {}), language="python", items=str(listed), items_sha256="0" * 64
        )
    task = tmp_path / "copilot_repo_generate_python.yaml"
    task.write_text("      options:\n        items_sha256: " + "0" * 64 + "  # pinned\n")
    assert pin_tasks([task], "ab" * 32) == [task]
    assert task.read_text().endswith("items_sha256: " + "ab" * 32 + "  # pinned\n")
