"""SELU's protocol defaults and option overrides."""

from __future__ import annotations

import pytest

from seebench.errors import SeebenchError
from seebench.methods.finetune.config import TrainConfig


def test_selu_defaults():
    plan = TrainConfig.from_options({}).resolve("label", 956)
    assert plan["effective_batch"] == 64 and plan["epochs"] == 10
    assert plan["learning_rate"] == 1e-4 and plan["weight_decay"] == 0.01
    assert plan["steps_per_epoch"] == 15 and plan["total_steps"] == 150
    assert plan["eval_every"] == 15 and plan["warmup_steps"] == 15 and plan["patience"] == 3
    assert TrainConfig.from_options({}).resolve("number", 23_313)["learning_rate"] == 1e-5
    assert TrainConfig.from_options({}).resolve("tag_sequence", 100)["epochs"] == 50
    assert TrainConfig.from_options({}).resolve("masked_words", 100)["epochs"] == 50


def test_overrides_and_string_values():
    config = TrainConfig.from_options(
        {
            "lr": "3e-5",
            "epochs": "2",
            "max_steps": "7",
            "peft": "lora",
            "lora_targets": "query,key",
            "deepspeed": "ZeRO2",
        }
    )
    plan = config.resolve("label", 1000, world_size=2)
    assert plan["learning_rate"] == 3e-5 and plan["total_steps"] == 7
    assert plan["per_device_batch"] == 32 and plan["lora_targets"] == ["query", "key"]
    assert plan["deepspeed"] == "zero2"


@pytest.mark.parametrize(
    "options",
    [{"nope": 1}, {"peft": "ia3"}, {"deepspeed": "zero9"}, {"epochs": "many"}, {"bf16": "maybe"}],
)
def test_bad_options_fail_with_one_line(options):
    with pytest.raises(SeebenchError) as info:
        TrainConfig.from_options(options)
    assert "\n" not in str(info.value)
