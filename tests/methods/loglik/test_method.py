"""``seebench eval --method loglik`` end to end against a stand-in completions server that
returns prompt log-probabilities (it favours the word "bug"), and ``seebench loglik decide``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.methods.loglik.method import LoglikMethod
from seebench.models import ModelRef
from tests.cli.test_cli import run_cli
from tests.conftest import make_binary_task, write_task
from tests.models.backends.completion_server import CompletionServer

MULTILABEL = """
name: tags
suite: tmp
version: 1
type: multilabel
labels:
  - {name: bug}
  - {name: ui}
data:
  sources:
    - {path: tags.jsonl, format: jsonl}
  prepare:
    - {step: select, columns: {input: title, target: tags}}
metrics: [f1_macro, accuracy]
"""


@pytest.fixture
def env(tmp_path):
    tasks = tmp_path / "tasks"
    make_binary_task(tasks, "issues", rows=12)
    rows = [{"title": f"Button {i} is broken", "tags": ["bug", "ui"][: i % 3]} for i in range(9)]
    (tasks / "tags.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    write_task(tasks, "tags", MULTILABEL)
    return {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tasks),
        "SEEBENCH_HOME": str(tmp_path / "home"),
    }


def unit(out: Path, task: str) -> tuple[dict, list[dict]]:
    (path,) = [p for p in out.rglob(f"{task}.json")]
    result = json.loads(path.read_text())
    samples = path.with_name(result["samples_file"]).read_text().splitlines()
    return result, [json.loads(line) for line in samples]


def test_loglik_ranks_labels_and_stores_every_option(env, tmp_path):
    out = tmp_path / "out"
    with CompletionServer() as server:
        code, _, stderr = run_cli(
            [
                "eval",
                "--model",
                "openai:stand-in",
                "--method",
                "loglik",
                "--tasks",
                "issues,tags",
                "-o",
                f"base_url={server.base_url}",
                "-o",
                "calibrate=true",
                "--output",
                str(out),
                "--no-progress",
            ],
            env=env,
        )
    assert code == 0, stderr
    result, samples = unit(out, "issues")
    assert {s["prediction"] for s in samples} == {"bug"}  # the stand-in favours it
    first = samples[0]["extra"]["loglik"]
    assert first["bug"]["logprob"] == pytest.approx(-0.3)
    assert first["other"]["logprob"] == pytest.approx(-1.5)
    assert "error" not in samples[0]
    summary = result["info"]["loglik"]
    assert summary["decide"] == "raw" and set(summary["scorings"]) == {"raw", "norm", "calibrated"}
    assert summary["scorings"]["raw"]["accuracy"] == pytest.approx(result["metrics"]["accuracy"])
    assert 0 <= summary["ece"] <= 1 and summary["reliability"]
    tags, tag_samples = unit(out, "tags")
    assert tags["status"] == "ok"
    assert set(tag_samples[0]["extra"]["loglik"]) == {"bug", "ui"}
    assert set(tag_samples[0]["extra"]["loglik"]["ui"]) == {"yes", "no"}
    code, stdout, stderr = run_cli(["loglik", "decide", str(out), "--by", "norm"], env=env)
    assert code == 0, stderr
    assert "issues.json: norm: f1_macro" in stdout and "tags.json: norm:" in stdout


def test_a_server_without_prompt_logprobs_stops_with_one_line(env, tmp_path):
    with CompletionServer(logprobs=False) as server:
        code, stdout, stderr = run_cli(
            ["eval", "--model", "openai:plain", "--method", "loglik", "--tasks", "issues"]
            + ["-o", f"base_url={server.base_url}", "--output", str(tmp_path / "o")]
            + ["--no-progress"],
            env=env,
        )
    assert "Traceback" not in stderr
    assert "'plain'" in stdout + stderr and "echo" in stdout + stderr


def test_only_closed_label_sets_apply():
    from seebench.tasks.spec import Label

    chat = ModelRef(spec="openai:m", id="m", kind="openai", identity={"model": "m"})
    rule = ModelRef(spec="reference", id="reference", kind="rule")
    labelled = _Task("binary", "label", (Label("bug"), Label("other")))
    method = LoglikMethod()
    assert method.not_applicable(labelled, chat) is None
    assert "cannot score" in method.not_applicable(labelled, rule)
    assert "closed label set" in method.not_applicable(_Task("regression", "number", ()), chat)


class _Task:
    def __init__(self, type_name, target_kind, labels):
        self.name, self.type, self.target_kind, self.labels = "t", type_name, target_kind, labels
