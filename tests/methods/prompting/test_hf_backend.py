"""The local transformers backend on a tiny random GPT-2 (built in a fixture, no downloads)."""

from __future__ import annotations

import pytest

pytest.importorskip("transformers", reason="the hf backend needs the hf extra")

from seebench.data.dataset import Sample
from seebench.methods.prompting.method import ThreeShotMethod, ZeroShotMethod
from seebench.methods.prompting.template import build_prompt
from seebench.models import ModelRef
from seebench.models.backends.hf import HFBackend
from tests.methods.prompting.conftest import evaluate, make_prompt_task, read_unit
from tests.tasks.test_parsing import BINARY, REGRESSION, task

INPUTS = [
    "Fix crash",
    "The system shall export every report as a PDF file within ten seconds",
    "Add dark mode",
    "Refactor the parser into smaller functions without changing behaviour at all",
    "Is this a bug?",
]


def prompts():
    return [build_prompt(BINARY, Sample(str(i), text, "yes")) for i, text in enumerate(INPUTS)]


def test_batched_generation_gives_the_same_replies_as_one_at_a_time(tiny_gpt2):
    batched = dict(HFBackend(tiny_gpt2, max_new_tokens=6, batch_size=4).generate(prompts()))
    single = dict(HFBackend(tiny_gpt2, max_new_tokens=6, batch_size=1).generate(prompts()))
    assert sorted(batched) == sorted(single) == list(range(len(INPUTS)))
    for index in batched:
        assert batched[index].text == single[index].text
        assert batched[index].confidence == pytest.approx(single[index].confidence, rel=1e-3)
        assert 0.0 < batched[index].confidence <= 1.0
        assert batched[index].usage["completion_tokens"] <= 6


def test_chat_models_get_their_chat_template_and_others_plain_text(tiny_gpt2, tiny_chat_gpt2):
    prompt = prompts()[0]
    chat = HFBackend(tiny_chat_gpt2, max_new_tokens=4).render(prompt)
    assert chat.startswith("<|user|>Task:") and chat.endswith("<|assistant|>")
    assert HFBackend(tiny_gpt2, max_new_tokens=4).render(prompt) == prompt.as_text()


def test_eval_with_a_local_model_accounts_for_every_sample_and_reuses_the_cache(
    task_env, tiny_chat_gpt2
):
    make_prompt_task(task_env[1], "local", "binary", INPUTS)
    spec = f"hf:{tiny_chat_gpt2}"
    [outcome] = evaluate(task_env, spec, "local", method="zero-shot")
    assert outcome.status == "ok", outcome.reason
    model_id = outcome.model_id
    result, samples = read_unit(task_env[2], model_id, "zero-shot", "local")
    assert result["n"] == len(samples) == len(INPUTS)
    assert result["invalid"] == sum(s["prediction"] is None for s in samples)
    assert result["invalid_rate"] == result["invalid"] / len(INPUTS)
    for record in samples:  # a random model: each answer is a label or an error with a reason
        assert "raw" in record and 0.0 < record["confidence"] <= 1.0
        assert (record["prediction"] in ("bug", "other")) != bool(record.get("error"))
    assert sum(result["info"]["invalid_reasons"].values()) == result["invalid"]
    assert result["info"]["backend"] == "hf" and result["info"]["cache"]["misses"] == len(INPUTS)

    [again] = evaluate(task_env, spec, "local", method="zero-shot", output=task_env[2] / "again")
    rerun, rerun_samples = read_unit(task_env[2] / "again", model_id, "zero-shot", "local")
    assert rerun["info"]["cache"]["hits"] == len(INPUTS) and rerun["info"]["batches"] == 0
    assert [s["raw"] for s in rerun_samples] == [s["raw"] for s in samples]

    evaluate(task_env, spec, "local", method="3-shot", method_options={"shots": 2})
    few, few_samples = read_unit(task_env[2], model_id, "3-shot", "local")
    assert few["info"]["shots"] == 2 and all(len(s["shots"]) == 2 for s in few_samples)
    assert few["info"]["cache"]["hits"] == 0  # other messages, other keys


def test_unknown_options_are_refused(task_env, tiny_gpt2):
    from seebench.errors import SeebenchError

    make_prompt_task(task_env[1], "opts", "binary", INPUTS[:1])
    with pytest.raises(
        SeebenchError, match=r"unknown option 'batchsize' \(did you mean 'batch_size'\?\)"
    ):
        evaluate(
            task_env, f"hf:{tiny_gpt2}", "opts", method="zero-shot", method_options={"batchsize": 2}
        )


def test_not_applicable_tasks_and_models():
    method, generative = (
        ZeroShotMethod(),
        ModelRef("hf:x", "x", "hf", {"architecture": "GPT2LMHeadModel"}),
    )
    assert method.not_applicable(BINARY, generative) is None
    assert (
        method.not_applicable(REGRESSION, ModelRef("openai:m", "m", "openai", {"model": "m"}))
        is None
    )
    assert "ner" in method.not_applicable(task("ner", [{"name": "PER"}]), generative)
    assert "does not generate" in method.not_applicable(
        BINARY, ModelRef("hf:b", "b", "hf", {"architecture": "BertModel"})
    )
    assert "cannot be prompted" in ThreeShotMethod().not_applicable(
        BINARY, ModelRef("majority", "majority", "baseline")
    )


def test_registered_methods_and_models(task_env):
    registry = task_env[0]
    assert registry.method("zero-shot").target_kinds == (
        "label",
        "label_set",
        "number",
        "code",
        "free_text",
    )
    assert registry.method("3-shot").load().default_shots == 3
    assert registry.model_entry("smollm2").default_method == "zero-shot"
    assert registry.model_entry("hf:/some/dir").name == "hf:"
    assert registry.model_entry("openai:gpt-4o").name == "openai:"


def test_reading_the_shared_prompt_start_once_gives_the_same_replies(tiny_gpt2):
    cached = HFBackend(tiny_gpt2, max_new_tokens=6, batch_size=2)
    whole = HFBackend(tiny_gpt2, max_new_tokens=6, batch_size=2, prefix_cache=False)
    with_prefix, without = dict(cached.generate(prompts())), dict(whole.generate(prompts()))
    assert cached.info()["prefix_tokens"] > 20 and whole.info()["prefix_tokens"] == 0
    assert sorted(with_prefix) == sorted(without) == list(range(len(INPUTS)))
    for index, generation in with_prefix.items():
        assert generation.text == without[index].text
        assert generation.confidence == pytest.approx(without[index].confidence, rel=1e-3)
        assert generation.usage == without[index].usage


def test_prompts_longer_than_the_context_get_an_error_and_the_rest_fit(tmp_path):
    from tests.tiny_models import build_tiny_gpt2

    model = build_tiny_gpt2(tmp_path / "short-context", n_positions=130)
    backend = HFBackend(model, max_new_tokens=30, batch_size=2)
    long_text = " ".join(["the system shall export reports"] * 40)
    items = [
        build_prompt(BINARY, Sample("0", "Fix crash", "yes")),
        build_prompt(BINARY, Sample("1", long_text, "yes")),
    ]
    replies = dict(backend.generate(items))
    assert replies[1].text is None
    assert "does not fit the model's context of 130 tokens" in replies[1].error
    assert replies[0].error is None and replies[0].text is not None
    prompt_tokens = replies[0].usage["prompt_tokens"]
    assert prompt_tokens + replies[0].usage["completion_tokens"] <= 130


def test_sampled_requests_with_different_seeds_are_different_requests(tiny_chat_gpt2):
    from seebench.models.client import ModelClient
    from seebench.models.hf import resolve_hf

    client = ModelClient(resolve_hf(f"hf:{tiny_chat_gpt2}"), {"cache": True}, seed=0)
    messages = [{"role": "user", "content": "Grade this: Fix crash"}]
    first = client.chat(messages, max_new_tokens=5, temperature=1.0, seed=1)
    again = client.chat(messages, max_new_tokens=5, temperature=1.0, seed=1)
    client.chat(messages, max_new_tokens=5, temperature=1.0, seed=2)
    assert client.generated == 2  # seed 1 once (then cached), seed 2 once
    assert again.text == first.text
    seeds = {key[2] for key in client._backends}
    assert seeds == {1, 2}
