"""Exclusion rules with their counts, the tutorial and forged verdicts left out of the
metrics, and the survey tables by condition."""

from __future__ import annotations

import math

import click
import pytest
from click.testing import CliRunner
from seebench_study.analysis.events import build_log
from seebench_study.analysis.exclusions import apply_exclusions, parse_rules
from seebench_study.analysis.report import analyze, format_report
from seebench_study.analysis_cli import add_commands
from seebench_study_tests.analysis.conftest import SessionWriter, write_jsonl

from seebench.errors import SeebenchError


def _participant(name, kind, *, consent=True, task=True, finish=True, screen=None, tlx=None):
    writer = SessionWriter(f"s-{name}", f"c-{kind}", kind)
    if consent is not None:
        writer.emit("consent", accepted=consent)
    if screen is not None:
        writer.emit(
            "survey_answer", survey="pre", item="adult", answer=screen, screened_out=screen != "yes"
        )
    writer.load("tutorial_task", 0)
    writer.events[-1]["data"]["tutorial"] = True
    writer.wait(10).submit("x", passed=True)
    if task:
        writer.load("real_task", 1)
        writer.wait(100).submit("y", passed=True)
    writer.task = None
    for item, value in (tlx or {}).items():
        writer.emit("survey_answer", survey="post", item=item, answer=value)
    if finish:
        writer.emit("session_finished", end_code="E")
    return writer.events


def _log(*sessions):
    events = [e for s in sessions for e in s]
    return build_log("test", ((str(i), e) for i, e in enumerate(events)))


def test_each_rule_removes_its_sessions_and_says_how_many() -> None:
    log = _log(
        _participant("ok", "none"),
        _participant("declined", "none", consent=False, task=False, finish=False),
        _participant("silent", "none", consent=None),
        _participant("minor", "none", screen="no"),
        _participant("adult", "none", screen="yes"),
        _participant("idle", "none", task=False),
        _participant("quit", "none", finish=False),
    )
    kept, exclusions = apply_exclusions(log, parse_rules("default"))
    assert sorted(kept.sessions) == ["s-adult", "s-ok", "s-quit"]
    assert {k: len(v) for k, v in exclusions.removed.items()} == {
        "no-consent": 2,
        "screened-out": 1,
        "no-task": 1,
    }
    assert exclusions.summary() == (
        "exclusions: no-consent 2, screened-out 1, no-task 1; 3 of 7 sessions kept"
    )
    kept, exclusions = apply_exclusions(log, parse_rules("no-consent,not-finished"))
    assert sorted(kept.sessions) == ["s-adult", "s-idle", "s-minor", "s-ok"]
    assert apply_exclusions(log, parse_rules("none"))[1].kept == 7


def test_a_misspelt_rule_is_one_line_naming_it() -> None:
    with pytest.raises(SeebenchError, match="--exclude 'no-consnt': not a rule.*no-consent"):
        parse_rules("no-consnt")


def test_the_tutorial_and_a_browser_claimed_verdict_are_not_counted() -> None:
    honest = _participant("honest", "none")
    forged = _participant("forged", "none")
    for event in forged:
        if event["type"] == "submit":
            event["tab"] = "tab-1"  # a browser's claim, not the server's verdict
    for event in honest:
        if event["type"] == "submit":
            event["tab"] = "server"
    analysis = analyze(_log(honest, forged), resamples=100)
    rows = analysis.participants.set_index("session")
    assert rows.loc["s-honest", "tasks_completed"] == 1  # the tutorial is not counted
    assert rows.loc["s-honest", "time_to_success_s"] == pytest.approx(100.0, abs=1)
    assert rows.loc["s-forged", "tasks_completed"] == 0


def test_survey_tables_by_condition_with_raw_tlx() -> None:
    log = _log(
        _participant("a1", "none", tlx={"tlx_mental": 10, "tlx_effort": 14}),
        _participant("a2", "none", tlx={"tlx_mental": 6, "tlx_effort": 10}),
        _participant("b1", "chat", tlx={"tlx_mental": 4, "tlx_effort": 4, "helpfulness": 8}),
    )
    analysis = analyze(log, resamples=100)
    table = analysis.survey_scales.set_index(["item", "condition"])
    assert table.loc[("raw_tlx", "c-none"), "mean"] == pytest.approx(10.0)
    assert table.loc[("raw_tlx", "c-none"), "n"] == 2
    assert table.loc[("helpfulness", "c-chat"), "n"] == 1
    assert math.isnan(table.loc[("helpfulness", "c-chat"), "sd"])
    assert ("helpfulness", "c-none") not in table.index
    report = format_report(analysis)
    assert (
        "Survey scales by condition" in report
        and "| raw_tlx | 4 (-, n=1) | 10 (2.828, n=2) |" in report
    )


def test_analyze_prints_the_exclusion_counts(tmp_path) -> None:
    @click.group()
    def group() -> None:
        """study"""

    add_commands(group)
    path = write_jsonl(
        tmp_path / "e.jsonl",
        [
            e
            for s in (_participant("ok", "none"), _participant("no", "none", consent=False))
            for e in s
        ],
    )
    result = CliRunner().invoke(group, ["analyze", str(path), "--bootstrap", "100"])
    assert result.exit_code == 0, result.output
    assert (
        "exclusions: no-consent 1, screened-out 0, no-task 0; 1 of 2 sessions kept" in result.output
    )
    result = CliRunner().invoke(
        group, ["analyze", str(path), "--exclude", "none", "--bootstrap", "100"]
    )
    assert "exclusions: none (all 2 sessions kept)" in result.output


def test_a_browser_event_that_waited_in_the_queue_keeps_its_time() -> None:
    writer = SessionWriter("s-q", "c-none", "none")
    writer.emit("consent", accepted=True)
    writer.wait(5).load("real_task", 1)
    late = writer.events[-1]
    late["server_time"] += 50_000  # stored 50 s late (an outage), after the verdict below
    writer.wait(30).emit("submit", code="y", passed=True, output="")
    verdict = writer.events[-1]
    verdict["tab"] = "server"
    verdict["client_time"] = verdict["server_time"]
    analysis = analyze(_log(writer.events), resamples=100)
    assert analysis.participants["time_to_success_s"].iloc[0] == pytest.approx(30.0, abs=0.1)
