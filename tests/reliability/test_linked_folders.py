"""Writes through linked folders and hard links (classes 1 and 2 of round 2): no result,
samples file, group record, run record, scorer artifact or event log is written through a
folder below a known root that is a symbolic link, and no lock or appended file that has a
second hard link is written. Each refusal is one line; the linked target is never touched."""

from __future__ import annotations

import os

import pytest

from seebench import safe_files
from seebench.results.io import artifacts_dir, result_paths
from seebench.safe_files import UnsafeFileError
from tests.reliability.helpers import slow_echo_eval, unit_lines, use_tmp_tasks
from tests.reliability.test_damaged_files import cli

SECRET = "TOP-SECRET-CONTENT-1234"


def _evaluate(out, *extra):
    return slow_echo_eval(out, *extra)


@pytest.fixture
def tasks_env(tmp_path, monkeypatch):
    use_tmp_tasks(tmp_path, monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text(SECRET)
    return tmp_path / "out", elsewhere


def _untouched(folder):
    """Only the planted file is in ``folder``, unchanged."""
    names = sorted(p.name for p in folder.rglob("*"))
    return names == ["keep.txt"] and (folder / "keep.txt").read_text() == SECRET


@pytest.mark.parametrize(
    "linked", ["majority", "majority/slow-echo"], ids=["model-folder", "method-folder"]
)
def test_eval_writes_nothing_through_a_linked_model_or_method_folder(tasks_env, capsys, linked):
    out, elsewhere = tasks_env
    (out / linked).parent.mkdir(parents=True, exist_ok=True)
    os.symlink(elsewhere, out / linked)
    code, _, stderr = cli(capsys, _evaluate(out))
    assert code == 1
    assert _untouched(elsewhere), sorted(p.name for p in elsewhere.rglob("*"))
    lines = unit_lines(stderr, "t0") + unit_lines(stderr, "t1")
    assert lines and all("symbolic link" in ln for ln in lines)
    assert "Traceback" not in stderr


def test_eval_writes_no_run_record_through_a_linked_runs_folder(tasks_env, capsys):
    out, elsewhere = tasks_env
    out.mkdir()
    os.symlink(elsewhere, out / "runs")
    code, _, stderr = cli(capsys, _evaluate(out))
    assert code == 1 and _untouched(elsewhere)
    assert "symbolic link" in stderr and "Traceback" not in stderr


@pytest.mark.parametrize("via", ["eval", "score"])
@pytest.mark.parametrize("linked", ["t0.artifacts", "t0.artifacts/python_tests"])
def test_scorer_artifacts_are_not_written_through_a_linked_folder(tmp_path, linked, via):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if via == "eval":  # eval names the unit's paths from --output
        result, _ = result_paths(tmp_path / "out", "m", "baseline", "t0")
    else:  # score is given the result file
        from seebench.results.io import unit_root

        result = tmp_path / "given" / "m" / "baseline" / "t0.json"
        unit_root(result)
    folder = result.parent / linked
    folder.parent.mkdir(parents=True)
    os.symlink(elsewhere, folder)
    target = artifacts_dir(result) / "python_tests" / "case-1.json"
    with pytest.raises(UnsafeFileError, match="symbolic link"):  # the sandbox scorer's write
        safe_files.atomic_write_text(target, "{}")
    with pytest.raises(UnsafeFileError, match="symbolic link"):  # a score cache append
        safe_files.append_text(artifacts_dir(result) / "python_tests" / "s.jsonl", "x\n")
    assert list(elsewhere.rglob("*")) == []


@pytest.mark.parametrize("how", ["file", "folder"])
def test_the_event_log_is_not_appended_through_a_link(tasks_env, capsys, how):
    out, elsewhere = tasks_env
    out.mkdir()
    if how == "file":
        events = out / "events.jsonl"
        os.symlink(elsewhere / "keep.txt", events)
    else:
        os.symlink(elsewhere, out / ".seebench")
        events = out / ".seebench" / "events.jsonl"
    code, _, stderr = cli(capsys, _evaluate(out, "--events", str(events)))
    assert code != 0 and _untouched(elsewhere)
    assert "symbolic link" in stderr and "Traceback" not in stderr


# -- hard links ----------------------------------------------------------------------------


def test_a_hardlinked_unit_lock_is_refused_and_its_target_untouched(tasks_env, capsys):
    out, elsewhere = tasks_env
    folder = out / "majority" / "slow-echo"
    folder.mkdir(parents=True)
    os.link(elsewhere / "keep.txt", folder / ".t0.lock")
    code, _, stderr = cli(capsys, _evaluate(out))
    assert code == 1 and (elsewhere / "keep.txt").read_text() == SECRET
    [line] = unit_lines(stderr, "t0")
    assert "hard links" in line
    assert (folder / "t1.json").is_file()  # the other unit ran


@pytest.mark.parametrize("opener", ["append", "lock", "truncate"])
def test_no_append_lock_or_write_opens_a_file_with_a_second_link(tmp_path, opener):
    victim = tmp_path / "victim.txt"
    victim.write_text(SECRET)
    link = tmp_path / "scores.jsonl"
    os.link(victim, link)
    with pytest.raises(UnsafeFileError, match="hard links"):
        if opener == "append":
            safe_files.append_text(link, "x\n")
        elif opener == "lock":
            safe_files.open_lock_file(link)
        else:
            safe_files.open_for_write(link)
    assert victim.read_text() == SECRET


def test_a_hardlinked_score_cache_is_not_appended(tmp_path):
    from seebench.scoring.run import _read_cache

    victim = tmp_path / "victim.txt"
    victim.write_text(SECRET)
    scores = tmp_path / "t0.artifacts" / "scores"
    scores.mkdir(parents=True)
    os.link(victim, scores / "accuracy.jsonl")
    assert _read_cache(scores / "accuracy.jsonl") == {}
    with pytest.raises(UnsafeFileError, match="hard links"):
        safe_files.append_text(scores / "accuracy.jsonl", "{}\n", root=tmp_path / "t0.artifacts")
    assert victim.read_text() == SECRET


def test_an_output_folder_that_is_itself_a_link_is_used(tasks_env, capsys, monkeypatch):
    out, elsewhere = tasks_env
    real = out.parent / "real-out"
    real.mkdir()
    os.symlink(real, out)
    monkeypatch.chdir(out.parent)  # the current folder is no root: its links stay allowed
    assert cli(capsys, _evaluate("out"))[0] == 0
    assert (real / "majority" / "slow-echo" / "t0.json").is_file()
