"""``seebench compare`` flags results whose code ran without a sandbox (``sandbox: none``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seebench.cli.main import main
from seebench.leaderboard.inputs import ran_without_sandbox, read_inputs
from tests.leaderboard.builders import write_result_dir


def test_results_scored_without_a_sandbox_are_flagged(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    results = write_result_dir(tmp_path / "results")
    marked = sorted(results.rglob("*.json"))[0]
    result = json.loads(marked.read_text())
    result["scorers"] = {"python_tests": {"scorer": "python_tests", "sandbox": "none"}}
    marked.write_text(json.dumps(result))

    assert ran_without_sandbox(result)
    assert not ran_without_sandbox({"scorers": {"python_tests": {"sandbox": "bwrap-userns"}}})
    assert not ran_without_sandbox({"scorers": {"sample_score": {"scorer": "sample_score"}}})
    assert read_inputs([results]).unsandboxed == [
        f"{result['model']['id']}/{result['method']} on {result['task']['name']} ({marked})"
    ]

    with pytest.raises(SystemExit) as exit_info:
        main(
            [
                "compare",
                str(results),
                "--out",
                str(tmp_path / "lb"),
                "--nsamples",
                "300",
                "--format",
                "json",
            ]
        )
    assert exit_info.value.code in (0, None)
    warnings = [
        line for line in capsys.readouterr().err.splitlines() if line.startswith("warning:")
    ]
    assert len(warnings) == 1 and warnings[0].startswith("warning: sandbox: none: ")
    assert str(marked) in warnings[0]
