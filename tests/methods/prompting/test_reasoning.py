"""Reasoning models end to end: ``-o think_end=...`` strips the reasoning before parsing, keeps
it in the samples file, and a reply cut off inside its reasoning is invalid with that reason."""

from __future__ import annotations

import pytest

pytest.importorskip("httpx", reason="the openai backend needs the api extra")

from tests.methods.prompting.conftest import evaluate, make_prompt_task, read_unit
from tests.methods.prompting.fake_openai import FakeOpenAI


@pytest.fixture
def server(monkeypatch):
    with FakeOpenAI() as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test-reasoning-0000")
        yield fake


def test_reasoning_is_stripped_kept_and_a_cut_reply_is_invalid(task_env, server):
    inputs = [
        "issue 0 [think] expect=bug",
        "issue 1 [think-cut] expect=bug",
        "issue 2 [think] [nolabel]",
    ]
    make_prompt_task(task_env[1], "think", "binary", inputs)
    options = {"think_end": "</think>", "concurrency": 1}
    [outcome] = evaluate(task_env, "openai:r1", "think", method_options=options)
    assert outcome.status == "ok", outcome.reason
    result, samples = read_unit(task_env[2], "openai-r1", "zero-shot", "think")
    first, cut, unparsed = samples  # in test order
    assert first["prediction"] == "bug" and first["raw"] == "**Bug**."
    assert first["extra"]["reasoning"].startswith("Is it a defect?")
    assert set(first["extra"]["tokens"]) == {"reasoning_tokens", "answer_tokens"}
    assert cut["prediction"] is None and "raw" not in cut
    assert cut["error"].startswith("reasoning cut off before the answer")
    assert cut["extra"]["reasoning"].startswith("Is it a defect? Let me weigh")
    assert unparsed["prediction"] is None and not unparsed["error"].startswith("reasoning")
    assert "within 4096 new tokens" in cut["error"]  # a reasoning model gets room to think
    reasons = result["info"]["invalid_reasons"]
    assert reasons["reasoning cut off before the answer"] == 1 and len(reasons) == 2
    split = result["info"]["reasoning"]
    assert split["cut_off"] == 1 and split["think_end"] == "</think>"
    assert split["reasoning_tokens"] + split["answer_tokens"] == 3 * 3  # the fake's usage
    assert result["run"]["config"]["method_options"]["think_end"] == "</think>"


def test_without_think_end_the_reasoning_is_part_of_the_answer(task_env, server):
    make_prompt_task(task_env[1], "nothink", "binary", ["issue 0 [think-cut] expect=bug"])
    evaluate(task_env, "openai:r1", "nothink", method_options={"concurrency": 1})
    result, [sample] = read_unit(task_env[2], "openai-r1", "zero-shot", "nothink")
    assert (
        "reasoning" not in result["info"]
        and "extra" not in sample
        or ("reasoning" not in sample.get("extra", {}))
    )
    assert sample["raw"].startswith("<think>")
