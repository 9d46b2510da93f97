"""Fixtures of the prompting tests: small tasks of every promptable type and a tiny GPT-2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench import EvalConfig, run_eval
from seebench.plugin_manager import build_registry, create_plugin_manager
from seebench.tasks.index import build_task_index
from tests.conftest import write_task
from tests.plugins import tmp_tasks_plugin
from tests.tiny_models import CHAT_TEMPLATE, build_tiny_gpt2

LABELS = {
    "binary": """
    labels:
      - {name: bug, value: 1, description: The issue reports a defect., synonyms: [defect, "a bug"]}
      - {name: other, value: 0, description: Anything else.}
    """,
    "multiclass": """
    labels:
      - {name: fix, description: Repairs behaviour.}
      - {name: feature, description: Adds behaviour.}
      - {name: non-functional, description: Changes qualities only., synonyms: [nfr]}
    """,
    "multilabel": """
    labels:
      - {name: ui, description: User interface.}
      - {name: performance, description: Speed or memory.}
      - {name: security, description: Protection against attacks.}
    """,
    "regression": """
    value_range: [1, 100]
    """,
}

TARGETS = {
    "binary": [1, 0],
    "multiclass": ["fix", "feature", "non-functional"],
    "multilabel": [["ui"], ["performance", "security"], []],
    "regression": [3, 8, 13],
}


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def make_prompt_task(
    directory: Path,
    name: str,
    task_type: str,
    test_inputs: list[str],
    train_size: int = 6,
    prompt: str | None = None,
) -> Path:
    """A task with a predefined split: ``test_inputs`` in order as the test set, and a train
    set (the shot pool). Every test input's target is the type's first example target."""
    directory.mkdir(parents=True, exist_ok=True)
    targets = TARGETS[task_type]
    write_jsonl(
        directory / f"{name}.train.jsonl",
        [
            {"text": f"training example {i}", "y": targets[i % len(targets)]}
            for i in range(train_size)
        ],
    )
    write_jsonl(
        directory / f"{name}.test.jsonl", [{"text": t, "y": targets[0]} for t in test_inputs]
    )
    body = f"""
    name: {name}
    suite: tmp
    version: 1
    type: {task_type}
    {LABELS[task_type].strip()}
    data:
      sources:
        - {{path: {name}.train.jsonl, format: jsonl, split: train}}
        - {{path: {name}.test.jsonl, format: jsonl, split: test}}
      prepare:
        - {{step: select, columns: {{input: text, target: y}}}}
    split: {{method: predefined, validation_size: 0}}
    metrics: [{"mae" if task_type == "regression" else "accuracy"}]
    """
    body = (
        body.rstrip(" ")
        + "    "
        + (
            prompt
            or "prompt: {context: Issues of a tracker., task: Classify the issue., entity: issue}"
        )
        + "\n"
    )
    return write_task(directory, name, body)


@pytest.fixture
def task_env(tmp_path, monkeypatch):
    """(registry, task directory, output directory) with the tmp task plugin loaded."""
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    registry = build_registry(
        create_plugin_manager(((tmp_tasks_plugin, "tmp"),), entry_points=False)
    )
    return registry, tasks, tmp_path / "out"


def evaluate(task_env, model: str, tasks: str, output: Path | None = None, **kwargs):
    """Run ``seebench eval`` in-process; returns the outcomes."""
    registry, _, out = task_env
    config = EvalConfig(model=model, tasks=tasks, output=output or out, progress=False, **kwargs)
    return run_eval(config, registry, build_task_index(registry))


def read_unit(out: Path, model_id: str, method: str, task: str) -> tuple[dict, list[dict]]:
    folder = out / model_id / method
    result = json.loads((folder / f"{task}.json").read_text())
    samples = [
        json.loads(line) for line in (folder / f"{task}.samples.jsonl").read_text().splitlines()
    ]
    return result, samples


@pytest.fixture(scope="session")
def tiny_gpt2(tmp_path_factory) -> Path:
    """A random tiny GPT-2 without a chat template (plain-text prompts)."""
    return build_tiny_gpt2(tmp_path_factory.mktemp("tiny-gpt2"))


@pytest.fixture(scope="session")
def tiny_chat_gpt2(tmp_path_factory) -> Path:
    """The same tiny GPT-2 with a chat template."""
    return build_tiny_gpt2(tmp_path_factory.mktemp("tiny-chat-gpt2"), chat_template=CHAT_TEMPLATE)
