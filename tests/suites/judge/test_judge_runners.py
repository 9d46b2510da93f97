"""The LLM judge methods on a stub model client: one bad reply never stops a run."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

import pytest

from seebench.data.dataset import Sample
from seebench.errors import SeebenchError
from seebench.methods.base import RunContext
from seebench.models import ModelRef
from seebench.suites.judge.runners import GEvalJudgeMethod, PairwiseJudgeMethod, VanillaJudgeMethod


@dataclass
class Generation:
    text: str | None
    error: str | None = None


class StubClient:
    """Replies in order, batched like the model client (an exception becomes an error reply)."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.batches = []
        self.requests = []  # (temperature, seed) of every request

    def generate(self, prompts, *, max_new_tokens, temperature=None, seed=None, strip=False):
        self.batches.append(len(prompts))
        self.requests.extend((temperature, seed) for _ in prompts)
        out = []
        for _ in prompts:
            reply = self.replies.pop(0)
            if isinstance(reply, Exception):
                out.append((Generation(None, str(reply)), False))
            else:
                out.append((Generation(reply.strip() if strip else reply), False))
        return out

    def chat(self, messages, *, max_new_tokens, temperature=None, seed=None, strip=False):
        generated = self.generate(
            [messages],
            max_new_tokens=max_new_tokens,
            temperature=temperature,
            seed=seed,
            strip=strip,
        )
        return generated[0][0]

    def info(self):
        return {"backend": "stub"}


def _context(samples, client, task_type="judged_score", options=None):
    task = SimpleNamespace(name="judge_x", type=task_type, tags={"judged": "generation"})
    data = SimpleNamespace(test=samples)
    model = ModelRef(spec="stub", id="stub", kind="hf")
    context = RunContext(
        task=task, data=data, model=model, seed=1, options=options or {}, work_dir=None
    )
    context._client = client
    return context


def _sample(i, **extra):
    item = {
        "task_input": f"req {i}",
        "reference": "ref",
        "languages": ["Java"],
        "response": f"r{i}",
        **extra,
    }
    return Sample(f"s{i}", item, {"human": 3.0, "input_group": 0})


def test_vanilla_records_scores_failures_and_errors_per_sample():
    client = StubClient(["Overall: 4/5", "no idea", RuntimeError("server down")])
    output = VanillaJudgeMethod().run(_context([_sample(0), _sample(1), _sample(2)], client))
    first, second, third = output.predictions
    assert (
        first.prediction == 4.0 and first.extra["rule"] == "overall" and first.raw == "Overall: 4/5"
    )
    assert second.prediction is None and second.error == "no score in the expected format"
    assert third.prediction is None and "server down" in third.error
    assert output.info["unscored"] == 2 and "unscored 2/3" in output.info["summary"]
    assert client.batches == [3]  # one batched call for all samples


def test_pairwise_keeps_both_orders_in_the_samples():
    client = StubClient(["Overall: A", "Overall: A"])
    sample = _sample(0, first="x", second="y")
    output = PairwiseJudgeMethod().run(_context([sample], client, "judged_preference"))
    (prediction,) = output.predictions
    assert prediction.prediction == 0.0 and prediction.extra["position_biased"] is True
    assert prediction.raw == "Overall: A\n---\nOverall: A"
    assert output.info["position_biased"] == 1


def test_geval_samples_each_grade_with_its_own_seed_and_averages_the_readable_ones():
    client = StubClient(["1. Read.\n2. Grade.", "Score: 4", "Score: 2", "no grade"])
    context = _context([_sample(0)], client, options={"samples": 3})
    (prediction,) = GEvalJudgeMethod().run(context).predictions
    assert prediction.prediction == 3.0 and prediction.extra["rule"] == "sample_mean"
    assert prediction.extra["grades"] == [4.0, 2.0] and prediction.extra["unscored_samples"] == 1
    steps, *samples = client.requests
    assert steps == (0.0, None)  # the evaluation steps: greedy, once
    assert samples == [(1.0, 1), (1.0, 2), (1.0, 3)]  # T=1, seeds 1, 2, 3: three requests


def test_geval_without_log_probabilities_is_a_hard_error():
    context = _context([_sample(0)], StubClient([]), options={"score_mode": "logprob_weighted"})
    with pytest.raises(SeebenchError, match="needs the top log-probabilities"):
        GEvalJudgeMethod().run(context)
