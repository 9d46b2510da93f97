"""Option log-likelihoods from an OpenAI-compatible completions server (echo + logprobs)."""

from __future__ import annotations

import pytest

from seebench.errors import ModelError
from seebench.models import ModelRef
from seebench.models.chat import Prompt
from seebench.models.client import ModelClient
from tests.models.backends.completion_server import CompletionServer

MODEL = ModelRef(spec="openai:m", id="m", kind="openai", identity={"model": "m"})
PROMPTS = [
    Prompt("a", ({"role": "user", "content": "Crash on save.\nLabel:"},)),
    Prompt("b", ({"role": "user", "content": "Add dark mode.\nLabel: "},)),
]


def test_each_option_is_scored_from_the_echoed_prompt():
    with CompletionServer() as server:
        client = ModelClient(MODEL, {"base_url": server.base_url, "cache": False})
        results = client.loglikelihood(PROMPTS, [["bug", "other"], ["bug", "feature request"]])
    (first, error, cached), (second, _, _) = results
    assert error is None and not cached
    assert first[0]["logprob"] == pytest.approx(-0.3)  # " bug": the favoured word
    assert first[1]["logprob"] == pytest.approx(-1.5)  # " other"
    assert second[1]["logprob"] == pytest.approx(-1.7 - 1.7)  # " feature", " request"
    assert second[1]["tokens"] == 2 and second[1]["chars"] == len("feature request")
    bodies = {b["prompt"] for b in server.bodies}
    assert "Add dark mode.\nLabel: bug" in bodies  # the context's space is not doubled
    assert all(b["echo"] is True and b["logprobs"] for b in server.bodies)


def test_a_server_without_prompt_logprobs_is_one_line_naming_the_model():
    with CompletionServer(logprobs=False) as server:
        client = ModelClient(MODEL, {"base_url": server.base_url, "cache": False})
        with pytest.raises(ModelError) as caught:
            client.loglikelihood(PROMPTS[:1], [["bug", "other"]])
    message = str(caught.value)
    assert "\n" not in message and "'m'" in message and "echo" in message


def test_a_backend_without_loglikelihoods_is_one_line():
    from seebench.plugin_manager import build_registry, create_plugin_manager
    from tests.plugins import backend_plugin

    registry = build_registry(
        create_plugin_manager(((backend_plugin, "parrot-plugin"),), entry_points=False)
    )
    client = ModelClient(backend_plugin.resolve_parrot("parrot"), registry=registry)
    with pytest.raises(ModelError, match="'parrot'.*cannot return log-likelihoods"):
        client.loglikelihood(PROMPTS, [["a"], ["b"]])
