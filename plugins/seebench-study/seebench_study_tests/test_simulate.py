"""``seebench study simulate``: a cohort of scripted participants through the real HTTP
protocol, then the analysis must recover the planted effect and the exclusions."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from seebench_study.cohort import PATTERN, VirtualClock
from seebench_study.simulate import check, simulate
from seebench_study.store import read_sessions

pytestmark = pytest.mark.slow


def test_thirty_simulated_participants_recover_the_planted_effect(
    rhe_tasks, sandbox_ready, tmp_path
) -> None:
    db = tmp_path / "sim.sqlite"
    outcome = check(simulate(30, db, faster_s=60.0, seed=0), db, resamples=500)
    assert outcome.recovered, outcome.lines()
    assert outcome.exclusions_right, outcome.lines()
    assert outcome.removed == {"no-consent": 3, "screened-out": 0, "no-task": 6}
    kept = sum(PATTERN[i % len(PATTERN)] in ("diligent", "two-tab", "skipper") for i in range(30))
    codes = [row["end_code"] for row in read_sessions(db) if row["end_code"]]
    assert outcome.end_codes == len(codes) == kept  # an end code for each who played
    assert outcome.refused["early skip"] == 3 * 4  # every skipper, every task
    assert outcome.refused["end code after declining"] == 3
    assert outcome.refused["end code for forged finishes"] == 3
    assert outcome.refused["run from a tab taken over"] == 6


def test_a_planted_effect_of_zero_is_not_recovered_as_sixty(
    rhe_tasks, sandbox_ready, tmp_path
) -> None:
    """The check can fail: with no effect planted, a claimed 60 s is outside the interval."""
    db = tmp_path / "sim.sqlite"
    outcome = check(simulate(20, db, faster_s=0.0, seed=1), db, resamples=500)
    low, high = outcome.delta["autocomplete"][1:]
    assert not low <= -60.0 <= high


def test_the_command_refuses_an_existing_database(rhe_tasks, tmp_path) -> None:
    from seebench_study.cli import study_group

    db = tmp_path / "old.sqlite"
    db.write_bytes(b"")
    result = CliRunner().invoke(study_group, ["simulate", "--participants", "1", "--db", str(db)])
    assert result.exit_code != 0 and "already exists" in str(result.exception)


def test_the_virtual_clock_moves_only_when_told() -> None:
    clock = VirtualClock(1000)
    assert clock() == clock() == 1000
    clock.advance(1.5)
    assert clock() == 2500
