"""A ratings task asked as choice questions: the rater prompts, and ``loglik`` ranking the scale
by log-likelihoods from a stand-in completions server that favours the item's hint; the result
re-decided from its samples file (as ``seebench loglik decide`` does) and analysed by
``seebench agreement``."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace

import pytest
from click.testing import CliRunner

from seebench import EvalConfig, run_eval
from seebench.cli.main import build_cli
from seebench.errors import SeebenchError
from seebench.methods.base import AsksChoices
from seebench.methods.loglik.redecide import redecide
from seebench.suites.annotation.questions import content_free_question, rating_questions
from seebench.tasks.index import build_task_index
from tests.json_post_server import JsonPostServer
from tests.models.servers.stand_in_server import echoed_completion

#: the probability the stand-in gives the hinted value (the other three share the rest)
HINTED = 0.7


def echo_favouring_hint(model: str, prompt: str) -> dict:
    """An echoed completion whose last word (the scored option) is likely when it is the
    last item's hint (``3`` when the hint is ``none``)."""
    reply = echoed_completion(model, prompt)
    logprobs = reply["choices"][0]["logprobs"]
    hint = re.findall(r"hint: (\w+)", prompt)[-1]
    option = logprobs["tokens"][-2].strip()  # the last token is the generated " ."
    favoured = "3" if hint == "none" else hint
    share = HINTED if option == favoured else (1 - HINTED) / 3
    logprobs["token_logprobs"][-2] = math.log(share)
    return reply


class RaterCompletions(JsonPostServer):
    """``POST /v1/completions`` on 127.0.0.1 answering :func:`echo_favouring_hint`."""

    def __init__(self):
        super().__init__()
        self.prompts: list[str] = []

    def reply(self, body):
        self.prompts.append(body["prompt"])
        return echo_favouring_hint(body["model"], body["prompt"])


def toy_task(registry):
    from seebench.data.dataset import load_task_data

    task = build_task_index(registry).get("toy_ratings")
    return task, load_task_data(task, registry, seed=0).test


def test_questions_ask_every_scale_point_with_an_answer_cue(toy_env):
    registry, _ = toy_env
    task, samples = toy_task(registry)
    assert isinstance(task.behaviour, AsksChoices)
    asked = rating_questions(task, samples, shots=0, seed=0)
    assert len(asked.questions) == len(samples) == 30
    first = asked.questions[0]
    assert first.answers == (1, 2, 3, 4) and first.verbalisers == ("1", "2", "3", "4")
    assert first.prompt.messages[-1]["content"].endswith("\nAnswer:")
    assert not first.prompt.shot_ids and not first.extra


def test_one_example_per_scale_point_with_shots_1(toy_env):
    registry, _ = toy_env
    task, samples = toy_task(registry)
    asked = rating_questions(task, samples, shots=1, seed=3)
    shots = [q for q in asked.questions if q.extra.get("shot")]
    assert len(shots) == 4 == len(asked.info["shot_items"])
    roles = [m["role"] for m in asked.questions[0].prompt.messages]
    assert roles.count("assistant") in (3, 4)  # its own item is never its example
    assert asked.info["scale_values_without_shot"] == []
    with pytest.raises(SeebenchError, match="shots=0 or shots=1"):
        rating_questions(task, samples, shots=2, seed=0)


def test_the_content_free_question_shows_only_the_given_text(toy_env):
    registry, _ = toy_env
    task, samples = toy_task(registry)
    question = content_free_question(task, samples, shots=0, seed=0, text="N/A")
    last = question.prompt.messages[-1]["content"]
    assert "hint: N/A" in last and "conf: N/A" in last and question.correct is None


def test_majority_is_the_answer_counted_right(toy_env):
    registry, _ = toy_env
    task, samples = toy_task(registry)
    asked = rating_questions(task, samples, shots=0, seed=0)
    for sample, question in zip(samples, asked.questions, strict=True):
        values = list(sample.target["ratings"].values())
        top = max(set(values), key=values.count)
        expected = top if values.count(top) * 2 > len(values) else None
        assert question.correct == expected


def test_loglik_rates_on_the_scale_then_decide_and_agreement(toy_env, tmp_path):
    registry, out = toy_env
    assert registry.method("loglik").applies_to("ratings", registry.task_type("ratings").load())
    with RaterCompletions() as server:
        config = EvalConfig(
            model="openai:stand-in",
            tasks="toy_ratings",
            method="loglik",
            output=out,
            progress=False,
            bootstrap=20,
            method_options={"base_url": server.base_url, "calibrate": True},
        )
        outcomes = run_eval(config, registry, build_task_index(registry))
        prompts = list(server.prompts)
    assert [o.status for o in outcomes] == ["ok"]
    assert len(prompts) == 30 * 4 + 4  # every item x every scale point, and the prior
    assert all(p.rstrip().rsplit("Answer:", 1)[1].strip() in "1234" for p in prompts)
    unit = out / "openai-stand-in" / "loglik"
    result = json.loads((unit / "toy_ratings.json").read_text())
    samples = [json.loads(line) for line in (unit / "toy_ratings.samples.jsonl").open()]
    for sample in samples:
        hint = re.search(r"hint: (\w+)", sample["extra"]["prompt"][-1]["content"]).group(1)
        assert sample["prediction"] == (3 if hint == "none" else int(hint))
        assert sample["confidence"] == pytest.approx(HINTED)
        assert set(sample["extra"]["loglik"]) == {"1", "2", "3", "4"}
        assert sample["extra"]["answers"] == {"1": 1, "2": 2, "3": 3, "4": 4}
    assert result["invalid"] == 0
    summary = result["info"]["loglik"]
    assert set(summary["scorings"]) == {"raw", "norm", "calibrated"}
    assert summary["scorings"]["raw"]["majority_agreement"] == pytest.approx(
        result["metrics"]["majority_agreement"]
    )
    assert result["metrics"]["majority_agreement"] > 0.6
    assert 0 <= summary["ece"] <= 1 and sum(b["count"] for b in summary["reliability"]) > 0
    assert set(summary["prior"]) == {"1", "2", "3", "4"}

    redecided = redecide(unit / "toy_ratings.json", "norm", registry, build_task_index(registry))
    assert redecided == pytest.approx(summary["scorings"]["norm"])
    report = tmp_path / "agreement"
    analysed = CliRunner().invoke(
        build_cli(),
        ["agreement", str(out), "--out", str(report), "--repetitions", "3"]
        + ["--band-repetitions", "20"],
    )
    assert analysed.exit_code == 0, analysed.output
    document = json.loads((report / "agreement.json").read_text())
    raters = {row["rater_a"] for row in document["tasks"][0]["pairs"]}
    raters |= {row["rater_b"] for row in document["tasks"][0]["pairs"]}
    assert "openai-stand-in/loglik" in raters


def test_tasks_without_what_raters_saw_are_not_applicable(toy_env):
    from seebench.methods.loglik.method import LoglikMethod
    from seebench.models import ModelRef

    registry, _ = toy_env
    task, _ = toy_task(registry)
    model = ModelRef(spec="openai:m", id="m", kind="openai", identity={"model": "m"})
    assert LoglikMethod().not_applicable(task, model) is None
    rater = {"applicable": False, "reason": "no code in the data"}
    hidden = replace(task, raw={**task.raw, "model_rater": rater})
    assert "no code in the data" in LoglikMethod().not_applicable(hidden, model)
