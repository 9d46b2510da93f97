"""A short load and crash test: participants send events while the server is killed and
restarted; nothing acknowledged is lost and nothing is stored twice (the full run:
``python benchmarks/study_load.py``)."""

from __future__ import annotations

import os

from seebench_study.loadtest import run_load


def test_no_event_is_lost_or_duplicated_across_a_server_kill(tmp_path, isolated_home) -> None:
    report = run_load(
        tmp_path,
        participants=50,
        seconds=5.0,
        kills=1,
        interval_s=0.3,
        drain_s=30.0,
        env={"SEEBENCH_HOME": os.environ["SEEBENCH_HOME"]},
    )
    assert report.kills == 1
    assert report.sent > 100 and report.resent > 0
    assert report.lost == 0 and report.duplicated == 0 and report.unacked == 0, report.errors
    assert report.stored == report.sent == report.acked
