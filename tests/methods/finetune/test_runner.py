"""``seebench eval --method finetune`` through the runner, on a YAML task in tmp_path."""

from __future__ import annotations

import json
import os

from seebench import EvalConfig, run_eval
from seebench.models.hf import local_model_ref
from seebench.plugin_manager import build_registry, create_plugin_manager, hookimpl
from seebench.tasks.index import build_task_index
from tests.conftest import make_binary_task
from tests.plugins import tmp_tasks_plugin


def resolve_tiny(spec: str):
    return local_model_ref(spec, __import__("pathlib").Path(os.environ["SEEBENCH_TEST_TINY_MODEL"]))


class TinyModels:
    @hookimpl
    def register_models(self, register) -> None:
        register(
            "tiny-gpt2",
            "tests.methods.finetune.test_runner:resolve_tiny",
            default_method="finetune",
        )


def test_eval_with_lora_through_the_runner(tiny_models, tmp_path, monkeypatch):
    tasks = tmp_path / "tasks"
    make_binary_task(tasks, "bugs", rows=40)
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tasks))
    monkeypatch.setenv("SEEBENCH_TEST_TINY_MODEL", str(tiny_models["gpt2"]))
    registry = build_registry(
        create_plugin_manager(
            ((tmp_tasks_plugin, "tmp"), (TinyModels(), "tiny")), entry_points=False
        )
    )
    options = {"peft": "lora", "max_steps": 3, "effective_batch": 8, "learning_rate": 1e-2}
    config = EvalConfig(
        model="tiny-gpt2",
        tasks="bugs",
        output=tmp_path / "out",
        progress=False,
        method_options=options,
    )
    outcomes = run_eval(config, registry, build_task_index(registry))
    assert [o.status for o in outcomes] == ["ok"], outcomes
    result = json.loads((tmp_path / "out" / "tiny-gpt2" / "finetune" / "bugs.json").read_text())
    info = result["info"]
    assert info["architecture"] == "decoder" and info["lora"]["lora_targets"] == ["c_attn"]
    assert info["train_config"]["peft"] == "lora" and info["steps_run"] == 3
    assert result["metrics"]["f1_macro"] >= 0
