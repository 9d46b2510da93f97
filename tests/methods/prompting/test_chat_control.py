"""Chat-template control: ``-o chat_template=false`` sends base models the raw prompt text, and
``-o fewshot_as_multiturn=true`` gives each shot as a user turn and an assistant answer; both
are part of the run hash (and of the response cache key)."""

from __future__ import annotations

import pytest

from seebench.data.dataset import Sample
from seebench.methods.prompting.template import build_prompt
from tests.methods.prompting.test_template import COMMITS

SHOTS = [Sample("s1", "Add login page", "feature"), Sample("s2", "Fix crash", "fix")]


def test_fewshot_as_multiturn_alternates_user_and_assistant_turns():
    prompt = build_prompt(COMMITS, Sample("t", "Fix race in cache", "fix"), SHOTS, multiturn=True)
    roles = [m["role"] for m in prompt.messages]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    first, answers = prompt.messages[1]["content"], prompt.messages[2::2]
    assert first.startswith("Task: Say why") or "Task: Say why" in first
    assert first.endswith("Commit message to classify: Add login page\nLabel:")
    assert "Solved examples" not in first  # the shots are turns, not a section
    assert [m["content"] for m in answers] == ["feature", "fix"]
    assert prompt.messages[-1]["content"].endswith("Fix race in cache\nLabel:")
    assert prompt.shot_ids == ("s1", "s2")


def test_multiturn_without_shots_is_the_single_message_prompt():
    sample = Sample("t", "Fix race", "fix")
    assert build_prompt(COMMITS, sample, (), multiturn=True) == build_prompt(COMMITS, sample)


transformers = pytest.importorskip("transformers", reason="the hf backend needs the hf extra")


def test_chat_template_false_sends_the_raw_text_to_a_chat_model(tiny_chat_gpt2):
    from seebench.models.backends.hf import HFBackend

    prompt = build_prompt(COMMITS, Sample("t", "Fix race", "fix"))
    raw = HFBackend(tiny_chat_gpt2, max_new_tokens=4, chat_template=False)
    templated = HFBackend(tiny_chat_gpt2, max_new_tokens=4)
    assert raw.render(prompt) == prompt.as_text()
    assert templated.render(prompt).startswith("<|system|>")
    assert raw.identity() != templated.identity()  # other replies, other cache keys


def test_the_choice_is_part_of_the_run_hash_and_the_cache_key(task_env, tiny_chat_gpt2):
    from tests.methods.prompting.conftest import evaluate, make_prompt_task, read_unit

    make_prompt_task(task_env[1], "chat", "binary", ["Fix crash", "Add dark mode"])
    spec = f"hf:{tiny_chat_gpt2}"
    hashes, misses = [], []
    for number, options in enumerate(
        [{}, {"chat_template": False}, {"shots": 2, "fewshot_as_multiturn": True}]
    ):
        out = task_env[2] / str(number)
        [outcome] = evaluate(
            task_env, spec, "chat", method="zero-shot", output=out, method_options=options
        )
        assert outcome.status == "ok", outcome.reason
        result, _ = read_unit(out, outcome.model_id, "zero-shot", "chat")
        hashes.append(result["run"]["config_hash"])
        misses.append(result["info"]["cache"]["misses"])
    assert len(set(hashes)) == 3
    assert misses == [2, 2, 2]  # nothing answered from another setting's cache
