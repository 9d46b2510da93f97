"""LLM judges over a scripted chat function: raw text, parsed value, rule and sampling kept."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from seebench.suites.judge import judging, prompts

KIND = prompts.KINDS["generation"]
ITEM = prompts.JudgeItem(
    "Implement add(a, b).", "int add(int a, int b) { return a + b; }", ("Java",)
)


@dataclass
class Reply:
    text: str
    logprobs: Any = None


class ScriptedChat:
    """Answers from a function of the prompt; records every call's keyword arguments."""

    def __init__(self, answer):
        self.answer = answer
        self.calls: list[dict[str, Any]] = []

    def __call__(self, messages, **kwargs):
        self.calls.append(kwargs)
        return self.answer(messages[-1]["content"], kwargs)


def test_vanilla_keeps_raw_text_rule_and_sampling():
    chat = ScriptedChat(lambda prompt, kw: Reply("Looks right.\nOverall: 4/5"))
    judgment = judging.judge_vanilla(chat, KIND, ITEM, seed=3)
    assert (judgment.value, judgment.rule) == (4.0, "overall")
    assert judgment.raw == ["Looks right.\nOverall: 4/5"]
    assert judgment.sampling == {"max_tokens": 768, "temperature": 0.0, "seed": 3}
    assert chat.calls == [judgment.sampling]


def test_vanilla_unparsable_reply_is_unscored_not_minimum():
    chat = ScriptedChat(lambda prompt, kw: Reply("I would give it a 9."))
    judgment = judging.judge_vanilla(chat, KIND, ITEM)
    assert judgment.value is None and judgment.reason == "no score in the expected format"


def _pairwise_answer(rule):
    def answer(prompt, kw):
        a_block = prompt.split("Generated code (Java) - A\n```\n")[1].split("\n```")[0]
        return Reply(f"Overall: {rule(a_block)}")

    return answer


def test_pairwise_runs_both_orders_and_keeps_consistent_verdicts():
    chat = ScriptedChat(_pairwise_answer(lambda a: "A" if a == "good" else "B"))
    judgment = judging.judge_pairwise(chat, KIND, ITEM, "good", "bad")
    assert judgment.value == 1.0 and judgment.rule == "both_orders"
    assert judgment.extra["verdict_in_order"] == 1 and judgment.extra["verdict_swapped"] == -1
    assert judgment.extra["position_biased"] is False
    assert len(judgment.raw) == 2


def test_pairwise_order_flip_becomes_a_flagged_tie():
    chat = ScriptedChat(_pairwise_answer(lambda a: "A"))
    judgment = judging.judge_pairwise(chat, KIND, ITEM, "good", "bad")
    assert judgment.value == 0.0 and judgment.rule == "orders_disagree_tie"
    assert judgment.extra["position_biased"] is True


def test_pairwise_with_one_unreadable_order_is_unscored():
    replies = iter([Reply("Overall: A"), Reply("Both have nice properties.")])
    judgment = judging.judge_pairwise(
        ScriptedChat(lambda p, kw: next(replies)), KIND, ITEM, "x", "y"
    )
    assert judgment.value is None and "swapped" in judgment.reason


def test_geval_sample_mean_uses_distinct_seeds_and_skips_unreadable_samples():
    answers = iter(["Score: 4", "Score: 5", "five", "Score: 3"])
    chat = ScriptedChat(lambda p, kw: Reply(next(answers)))
    judgment = judging.judge_geval(chat, KIND, ITEM, "1. Check.", samples=4, seed=10)
    assert judgment.value == pytest.approx(4.0)
    assert judgment.extra == {"grades": [4.0, 5.0, 3.0], "unscored_samples": 1}
    assert [c["seed"] for c in chat.calls] == [10, 11, 12, 13]
    assert all(c["temperature"] == 1.0 for c in chat.calls)


def test_geval_logprob_weighting_and_its_hard_error_without_logprobs():
    logprobs = [
        {"token": "Score", "logprob": -0.1, "top_logprobs": []},
        {"token": ":", "logprob": 0.0, "top_logprobs": []},
        {
            "token": " 4",
            "logprob": -0.5,
            "top_logprobs": [{"token": "4", "logprob": -0.5}, {"token": "5", "logprob": -1.2}],
        },
    ]
    chat = ScriptedChat(lambda p, kw: Reply("Score: 4", logprobs))
    judgment = judging.judge_geval(chat, KIND, ITEM, "1. Check.", mode="logprob_weighted")
    assert 4 < judgment.value < 5 and chat.calls[0]["logprobs"] is True
    no_logprobs = ScriptedChat(lambda p, kw: Reply("Score: 4", None))
    with pytest.raises(judging.JudgeConfigError, match="needs log-probabilities"):
        judging.judge_geval(no_logprobs, KIND, ITEM, "1.", mode="logprob_weighted")
    with pytest.raises(judging.JudgeConfigError, match="unknown score_mode"):
        judging.judge_geval(no_logprobs, KIND, ITEM, "1.", mode="median")


def test_batcheval_grades_every_item_each_round_and_averages():
    def answer(prompt, kw):
        count = prompt.count("# Sample ")
        return Reply("\n".join(f"Response {n}: {1 + n % 5}" for n in range(1, count + 1)))

    chat = ScriptedChat(answer)
    items = [prompts.JudgeItem(f"in {i}", f"out {i}", ("Java",)) for i in range(23)]
    judgments = judging.judge_batcheval(chat, KIND, items, rounds=3, batch_size=10)
    assert len(chat.calls) == 3 * 3
    assert all(len(j.extra["round_grades"]) == 3 and j.scored for j in judgments)
    assert all(1 <= j.value <= 5 for j in judgments)
