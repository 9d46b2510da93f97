"""The suite as a plugin, end to end: a ratings task, ``annotate`` through an OpenAI-compatible
model client (a fake rater on 127.0.0.1), then ``seebench agreement`` on the results."""

from __future__ import annotations

import json
import math
import re
from collections import Counter

from click.testing import CliRunner

from seebench import EvalConfig, run_eval
from seebench.cli.main import build_cli
from seebench.tasks.index import build_task_index
from tests.json_post_server import JsonPostServer


class FakeRater(JsonPostServer):
    """Answers the ``hint`` shown in the item (or ``3`` when an item says ``hint: none``), with
    probability ``conf`` from the item as the token's logprob."""

    def __init__(self):
        super().__init__()
        self.requests = 0
        self.seeds = []

    def reply(self, body):
        self.requests += 1
        self.seeds.append(body.get("seed"))
        last = body["messages"][-1]["content"]
        hint = re.search(r"hint: (\w+)", last).group(1)
        conf = float(re.search(r"conf: ([\d.]+)", last).group(1))
        answer = "3" if hint == "none" else hint
        return {
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": answer},
                    "logprobs": {"content": [{"token": answer, "logprob": math.log(conf)}]},
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 1},
        }


def test_ratings_type_and_plugin_registration(toy_env):
    registry, _ = toy_env
    assert registry.task_type("ratings").plugin == "seebench.builtin.annotation"
    assert registry.method("annotate").applies_to("ratings", registry.task_type("ratings").load())
    assert not registry.method("zero-shot").applies_to(
        "ratings", registry.task_type("ratings").load()
    )
    task = build_task_index(registry).get("toy_ratings")
    assert task.metrics == ("alpha_human_model", "majority_agreement")


def test_annotate_then_agreement(toy_env, tmp_path):
    registry, out = toy_env
    with FakeRater() as server:
        config = EvalConfig(
            model="openai:fake-rater",
            tasks="toy_ratings",
            method="annotate",
            output=out,
            progress=False,
            bootstrap=50,
            method_options={"base_url": server.base_url},
        )
        outcomes = run_eval(config, registry, build_task_index(registry))
    assert [o.status for o in outcomes] == ["ok"]
    result = json.loads((out / "openai-fake-rater" / "annotate" / "toy_ratings.json").read_text())
    samples = [
        json.loads(line)
        for line in (out / "openai-fake-rater" / "annotate" / "toy_ratings.samples.jsonl")
        .read_text()
        .splitlines()
    ]
    assert len(samples) == 30 and result["invalid"] == 0
    assert sum(bool((s.get("extra") or {}).get("shot")) for s in samples) == 4
    assert {round(s["confidence"], 2) for s in samples} == {0.95, 0.4}
    assert result["metrics"]["majority_agreement"] > 0.6
    assert "ci95" in result["metric_info"]["alpha_human_model"]

    report = tmp_path / "agreement"
    outcome = CliRunner().invoke(
        build_cli(),
        [
            "agreement",
            str(out),
            "--out",
            str(report),
            "--repetitions",
            "5",
            "--band-repetitions",
            "50",
        ],
    )
    assert outcome.exit_code == 0, outcome.output
    assert "| toy_ratings | **interval** |" in outcome.output
    document = json.loads((report / "agreement.json").read_text())
    task = document["tasks"][0]
    raters = {row["rater_b"] for row in task["pairs"]} | {row["rater_a"] for row in task["pairs"]}
    assert {"h1", "h2", "h3", "openai-fake-rater/annotate", "random"} <= raters
    assert task["summary"]["items"] == 26  # the 4 few-shot items are left out
    assert "openai-fake-rater/annotate" in task["replacement"]
    assert (
        report / "figures" / "toy_ratings.openai-fake-rater--annotate.replacement.svg"
    ).exists() or any(p.name.endswith(".replacement.svg") for p in (report / "figures").iterdir())


def test_annotate_samples_measure_intra_rater_stability(toy_env):
    registry, out = toy_env
    with FakeRater() as server:
        config = EvalConfig(
            model="openai:fake-rater",
            tasks="toy_ratings",
            method="annotate",
            output=out,
            progress=False,
            bootstrap=20,
            method_options={"base_url": server.base_url, "samples": 2},
        )
        outcomes = run_eval(config, registry, build_task_index(registry))
        requests, seeds = server.requests, server.seeds
    assert [o.status for o in outcomes] == ["ok"]
    assert requests == 90  # 30 greedy answers + 2 sampled rounds of 30
    counts = sorted(Counter(seeds).items(), key=lambda kv: (kv[0] is not None, kv[0] or 0))
    assert [n for _, n in counts] == [30, 30, 30]  # greedy (no seed), then one seed per round
    assert counts[0][0] is None and counts[2][0] == counts[1][0] + 1
    unit = out / "openai-fake-rater" / "annotate"
    samples = [json.loads(line) for line in (unit / "toy_ratings.samples.jsonl").open()]
    assert all(len(s["extra"]["samples"]) == 2 for s in samples)
    result = json.loads((unit / "toy_ratings.json").read_text())
    stability = result["info"]["stability"]
    assert stability["samples"] == 2 and stability["unanimous"] == 1.0
