"""``vllm:`` log-likelihoods go through the managed server's completions endpoint (the
stand-in vLLM echoes prompt log-probabilities)."""

from __future__ import annotations

import pytest

from seebench.models.chat import Prompt
from seebench.models.client import ModelClient
from seebench.models.servers.kinds import resolve_served


def test_vllm_scores_options_through_the_server(stand_in, model_dir):
    model = resolve_served(f"vllm:{model_dir}")
    client = ModelClient(model, {"cache": False})
    prompt = Prompt("a", ({"role": "user", "content": "Crash on save.\nLabel:"},))
    ((scores, error, _),) = client.loglikelihood([prompt], [["bug", "other"]])
    assert error is None
    assert [s["logprob"] for s in scores] == [pytest.approx(-0.3), pytest.approx(-1.5)]
    assert client.info()["server"]["server"] == "vllm"  # the server was started for it
