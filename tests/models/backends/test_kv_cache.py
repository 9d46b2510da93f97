"""The key/value cache is passed and read under the name the installed transformers uses."""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass

import pytest

from seebench.models.backends.kv_cache import cache_argument, cache_keyword, cache_of
from seebench.models.chat import Prompt
from tests.tiny_models import build_tiny_gpt2


class NewModel:
    def forward(self, input_ids=None, cache=None, use_cache=None): ...


class OldModel:
    def forward(self, input_ids=None, past_key_values=None, use_cache=None): ...


@dataclass
class NewOutput:
    cache: object = None


@dataclass
class OldOutput:
    past_key_values: object = None


def test_the_name_follows_the_models_forward():
    assert cache_keyword(NewModel().forward) == "cache"
    assert cache_keyword(OldModel().forward) == "past_key_values"
    assert cache_argument(NewModel(), "kv") == {"cache": "kv"}
    assert cache_argument(OldModel(), "kv") == {"past_key_values": "kv"}


def test_the_cache_is_read_under_either_name():
    assert cache_of(NewOutput(cache="kv")) == "kv"
    assert cache_of(OldOutput(past_key_values="kv")) == "kv"


def test_loglik_and_generation_warn_about_no_deprecated_cache_name(tmp_path, caplog):
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from seebench.models.backends.hf import HFBackend

    directory = build_tiny_gpt2(tmp_path / "tiny")
    backend = HFBackend(directory, max_new_tokens=3, batch_size=2, chat_template=False)
    shared = "Task: say whether the report is a bug. Answer with one label. " * 3
    prompts = [
        Prompt(f"s{i}", ({"role": "user", "content": shared + text + "\nLabel:"},))
        for i, text in enumerate(["Crash on save.", "Add dark mode.", "Slow start-up."])
    ]
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING):
        warnings.simplefilter("always")
        scores = dict(backend.loglikelihood(prompts, [["bug", "other"]] * len(prompts)))
        list(backend.generate(prompts))
    assert len(scores) == 3
    messages = [str(w.message) for w in caught] + [r.getMessage() for r in caplog.records]
    assert not [m for m in messages if "past_key_values" in m], messages
