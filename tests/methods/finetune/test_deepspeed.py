"""DeepSpeed ZeRO-2 over 2 gloo processes (torchrun) on a tiny model."""

from __future__ import annotations

import importlib.util

import pytest

from seebench.methods.base import RunContext
from seebench.methods.finetune.distributed import deepspeed_config
from seebench.methods.finetune.method import FinetuneMethod
from seebench.models.hf import local_model_ref
from seebench.plugin_manager import get_registry
from tests.methods.finetune.conftest import make_data, make_task


def test_generated_config():
    config = deepspeed_config(2, 16, 2, 2, False)
    assert config["zero_optimization"]["stage"] == 2
    assert config["train_batch_size"] == 64 and config["bf16"] == {"enabled": False}


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("deepspeed") is None, reason="deepspeed not installed")
def test_zero2_two_processes(tiny_models, tmp_path):
    task = make_task("binary")
    data = make_data(task, n_train=32)
    ref = local_model_ref("hf:bert", tiny_models["bert"])
    options = {
        "deepspeed": "zero2",
        "nproc": 2,
        "effective_batch": 16,
        "max_steps": 4,
        "eval_fraction": 0.5,
        "learning_rate": 3e-3,
        "patience": 10,
    }
    output = FinetuneMethod().run(
        RunContext(
            task=task,
            data=data,
            model=ref,
            seed=1,
            options=options,
            work_dir=tmp_path / "work",
            registry=get_registry(),
        )
    )
    info = output.info
    assert info["deepspeed"]["world_size"] == 2 and info["deepspeed"]["backend"] == "gloo"
    assert info["deepspeed"]["config"]["zero_optimization"]["stage"] == 2
    assert info["train_config"]["per_device_batch"] == 8 and info["steps_run"] == 4
    assert len(output.predictions) == len(data.test)
    assert all(p.prediction in ("yes", "no") for p in output.predictions)
