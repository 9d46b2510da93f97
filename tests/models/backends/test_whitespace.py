"""A reply that starts with indentation keeps it through every backend (an autocomplete
suggestion lands at its column); callers that parse an answer ask for ``strip``."""

from __future__ import annotations

import pytest

from seebench.models import ModelRef
from seebench.models.client import ModelClient
from tests.models.backends.completion_server import CompletionServer

SUGGESTION = "    return total\n"


def test_openai_keeps_the_leading_indentation():
    model = ModelRef(spec="openai:m", id="m", kind="openai", identity={"model": "m"})
    with CompletionServer(reply=SUGGESTION) as server:
        client = ModelClient(model, {"base_url": server.base_url, "cache": False})
        assert client.chat([{"role": "user", "content": "def f():"}]).text == SUGGESTION
        stripped = client.chat([{"role": "user", "content": "def g():"}], strip=True)
    assert stripped.text == "return total"


def test_hf_keeps_the_leading_indentation(tmp_path):
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from seebench.models.hf import local_model_ref
    from tests.tiny_models import build_tiny_gpt2

    directory = build_tiny_gpt2(tmp_path / "spaces")
    tokenizer = AutoTokenizer.from_pretrained(directory)
    space = tokenizer.convert_tokens_to_ids(tokenizer.tokenize(" ")[0])
    lm = AutoModelForCausalLM.from_pretrained(directory)
    with torch.no_grad():  # every position's output is the space token: a reply of indentation
        lm.transformer.wte.weight[space] *= 50
        lm.transformer.ln_f.weight.zero_()
        lm.transformer.ln_f.bias.copy_(lm.transformer.wte.weight[space])
    lm.save_pretrained(directory)
    client = ModelClient(local_model_ref(f"hf:{directory}", directory), {"cache": False})
    reply = client.chat([{"role": "user", "content": "def f():"}], max_new_tokens=4).text
    assert reply == tokenizer.decode([space] * 4) and reply.startswith("    ")
    again = client.chat([{"role": "user", "content": "def f():"}], max_new_tokens=4, strip=True)
    assert again.text == ""
