"""The verdict of one reproduced unit (``seebench.leaderboard.certificate.judge``): the
seebench source commit of the two sides is noted when it differs, never made a difference."""

from __future__ import annotations

from seebench.leaderboard.certificate import DIFFERENT, IDENTICAL, judge, source_change

A = {"commit": "a" * 40, "dirty": False}
B = {"commit": "b" * 40, "dirty": False}


def _record(source):
    return {
        "unit": "majority/baseline/alpha.json",
        "status": "ok",
        "metrics": {"f1": 0.5},
        "data": {"alpha": "1" * 64},
        "seebench_version": "1.0",
        "seebench_source": source,
    }


def _result():
    return {"status": "ok", "metrics": {"f1": 0.5}, "data": {"checksums": {"alpha": "1" * 64}}}


def _judge(published, reproducing, result=None):
    envs = ({}, {"seebench_source": reproducing} if reproducing else {})
    return judge(_record(published), result or _result(), (0.0, ""), envs, "1.0")


def test_the_same_clean_commit_has_no_note():
    verdict = _judge(A, dict(A))
    assert (verdict.status, verdict.source) == (IDENTICAL, "")


def test_another_commit_is_noted_and_the_unit_stays_identical():
    verdict = _judge(A, B)
    assert verdict.status == IDENTICAL
    assert verdict.source == f"made at seebench commit {'a' * 12}, reproduced at commit {'b' * 12}"
    assert verdict.as_dict()["source"] == verdict.source


def test_the_note_rides_along_with_a_difference():
    changed = {**_result(), "metrics": {"f1": 0.75}}
    verdict = _judge(A, B, changed)
    assert verdict.status == DIFFERENT and "f1" in verdict.detail
    assert "reproduced at commit bbbbbbbbbbbb" in verdict.source


def test_uncommitted_changes_and_unknown_sources():
    dirty = {**A, "dirty": True}
    assert "with uncommitted changes" in source_change(dirty, dirty)
    assert source_change(A, None) == (
        f"made at seebench commit {'a' * 12}, reproduced at commit unknown"
    )
    assert source_change(None, B).startswith("made at seebench commit unknown")
    assert source_change(None, None) == ""  # neither is a git checkout: the version decides


def test_the_published_environment_stands_in_for_an_older_manifest():
    record = _record(None)
    envs = ({"seebench_source": A}, {"seebench_source": B})
    verdict = judge(record, _result(), (0.0, ""), envs, "1.0")
    assert verdict.source.startswith(f"made at seebench commit {'a' * 12}")
