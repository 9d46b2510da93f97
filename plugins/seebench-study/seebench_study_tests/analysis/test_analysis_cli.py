"""``study export`` / ``analyze`` / ``replay`` through click, as the study plugin adds them."""

from __future__ import annotations

import json

import click
import pandas as pd
import pytest
from click.testing import CliRunner
from seebench_study.analysis_cli import add_commands

from seebench.errors import SeebenchError
from tests.tiny_models import CHAT_TEMPLATE, build_tiny_gpt2


@pytest.fixture
def study():
    @click.group()
    def group() -> None:
        """study"""

    add_commands(group)
    return group


def test_add_commands(study):
    assert set(study.commands) == {"export", "analyze", "replay"}


def test_analyze_prints_table_writes_figures_and_json(study, simulated_study, tmp_path):
    figures, out = tmp_path / "fig", tmp_path / "a.json"
    result = CliRunner().invoke(
        study,
        [
            "analyze",
            str(simulated_study),
            "--figures",
            str(figures),
            "--json",
            str(out),
            "--bootstrap",
            "300",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "| no-llm | none |" in result.output
    assert "| time_to_success_s | chat-m |" in result.output
    assert sorted(p.name for p in figures.iterdir()) == [
        "acceptance_requested_vs_auto.png",
        "chat_messages.png",
        "deltas_vs_no_llm.png",
    ]
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in figures.iterdir())
    document = json.loads(out.read_text())
    assert len(document["participants"]) == 24
    assert {r["condition"] for r in document["conditions"]} == {"no-llm", "auto-m", "chat-m"}


def test_bad_lines_are_warnings_and_the_rest_is_analysed(study, simulated_study, tmp_path):
    broken = tmp_path / "broken.jsonl"
    broken.write_text(simulated_study.read_text() + "{oops\n", encoding="utf-8")
    result = CliRunner().invoke(study, ["analyze", str(broken), "--bootstrap", "100"])
    assert result.exit_code == 0
    assert (
        f"warning: {broken}: line {len(simulated_study.read_text().splitlines()) + 1}: invalid JSON"
        in result.stderr
    )
    assert "| chat-m | chat |" in result.stdout


def test_analyze_needs_exactly_one_source(study, simulated_study):
    result = CliRunner().invoke(study, ["analyze"])
    assert isinstance(result.exception, SeebenchError)
    result = CliRunner().invoke(study, ["analyze", str(simulated_study), "--released-chat"])
    assert "either SOURCE" in str(result.exception)


@pytest.mark.parametrize("what", ["events", "participants"])
def test_export(study, simulated_study, tmp_path, what):
    out = tmp_path / f"{what}.parquet"
    result = CliRunner().invoke(
        study, ["export", str(simulated_study), "--output", str(out), "--what", what]
    )
    assert result.exit_code == 0, result.output
    frame = pd.read_parquet(out)
    assert len(frame) == (
        24 if what == "participants" else len(simulated_study.read_text().splitlines())
    )


def test_replay_through_the_model_client(study, session_writer, tmp_path, monkeypatch):
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    model = build_tiny_gpt2(tmp_path / "tiny", chat_template=CHAT_TEMPLATE)
    w = session_writer("s", "auto", "autocomplete")
    w.load("t", 0)
    w.suggest("r1", "return a + b", accept=True, prefix="def add(a, b):\n    ")
    w.suggest("r2", "return 0", accept=False)
    w.submit("def add(a, b):\n    return a + b\n", passed=True)
    events = tmp_path / "e.jsonl"
    events.write_text("".join(json.dumps(e) + "\n" for e in w.events), encoding="utf-8")
    out = tmp_path / "replay.jsonl"
    args = [
        "replay",
        str(events),
        "--model",
        f"hf:{model}",
        "--output",
        str(out),
        "-o",
        "max_new_tokens=8",
    ]
    result = CliRunner().invoke(study, args)
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["request_id"] for r in records] == ["r1", "r2"]
    assert all("error" not in r and isinstance(r["replayed"], str) for r in records)
    assert records[0]["accepted"] and not records[1]["accepted"]


def test_replay_options_are_checked_before_any_call(study, simulated_study, tmp_path):
    base = [
        "replay",
        str(simulated_study),
        "--model",
        "smollm2",
        "--output",
        str(tmp_path / "r.jsonl"),
    ]
    result = CliRunner().invoke(study, [*base, "-o", "temprature=0"])
    assert "not a model client option (did you mean 'temperature'?)" in str(result.exception)
    result = CliRunner().invoke(study, [*base, "-o", "max_new_tokens=many"])
    assert "--option max_new_tokens=many: expected an integer >= 1" in str(result.exception)
    assert not (tmp_path / "r.jsonl").exists()
