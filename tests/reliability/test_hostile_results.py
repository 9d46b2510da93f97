"""Hostile result folders (classes 4-6): numbers that are not numbers, ``seebench score`` on
damaged units and across a kill between its two writes, and results filed under another
name. ``results check`` reports exactly what the next ``eval`` would not trust."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from seebench.results.numbers import bad_number
from tests.reliability.helpers import make_tasks
from tests.reliability.test_damaged_files import cli

TASKS = ["t0", "t1", "t2"]


@pytest.fixture
def out(tmp_path, monkeypatch, capsys):
    """Three computed units of the majority model; returns the output folder."""
    task_dir = make_tasks(tmp_path, TASKS)
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(task_dir))
    output = tmp_path / "out"
    assert cli(capsys, _evaluate(output))[0] == 0
    return output


def _evaluate(output):
    return ["eval", "--model", "majority", "--method", "slow-echo", "--tasks", "tmp"] + [
        "--output",
        str(output),
        "--no-progress",
    ]


def _folder(output):
    return output / "majority" / "slow-echo"


def _check_lines(capsys, output):
    code, stdout, stderr = cli(capsys, ["results", "check", str(output)])
    assert stderr == ""
    return code, stdout.splitlines()


def _set_metric(path, text_value):
    """Put ``text_value`` (raw JSON text) as the value of the first metric."""
    result = json.loads(path.read_text())
    metric = next(iter(result["metrics"]))
    raw = json.dumps(result).replace(
        f'"{metric}": {json.dumps(result["metrics"][metric])}', f'"{metric}": {text_value}', 1
    )
    path.write_text(raw)


# -- class 4: numbers that are not numbers ----------------------------------------------------


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e400", "1" + "0" * 30])
def test_a_result_with_a_non_number_is_broken_and_recomputed(out, capsys, value):
    path = _folder(out) / "t0.json"
    _set_metric(path, value)
    code, lines = _check_lines(capsys, out)
    [line] = [ln for ln in lines if "/t0.json:" in ln]
    assert code == 1 and line.startswith("BROKEN") and "not a sane number" in line
    code, _, stderr = cli(capsys, _evaluate(out))
    assert code == 0 and any("t0: recomputing" in ln for ln in stderr.splitlines())
    assert bad_number(json.loads(path.read_text())) is None


@pytest.mark.parametrize(
    "value", [float("nan"), float("inf"), 1e16, -1e300, 10**40, [1.0, {"x": float("nan")}]]
)
def test_bad_number_finds_each_kind(value):
    assert bad_number({"metrics": {"m": value}}) is not None


def test_sane_numbers_pass():
    assert bad_number({"a": 0.5, "b": [1, 2, -3.25e9], "c": True, "d": None, "e": "NaN"}) is None


@pytest.mark.parametrize("value", ["NaN", "Infinity", "1e400", "1e16"])
def test_score_cache_lines_with_non_numbers_are_not_reused(value):
    from seebench.scoring.core import Score

    with pytest.raises(ValueError):
        Score.from_json(json.loads(f'{{"value": {value}}}'))


def test_comparison_inputs_refuse_non_numbers(tmp_path, out):
    from seebench.errors import SeebenchError
    from seebench.leaderboard.inputs import _load_result

    path = _folder(out) / "t1.json"
    _set_metric(path, "NaN")
    with pytest.raises(SeebenchError, match="not a sane number") as error:
        _load_result(path)
    assert "\n" not in str(error.value)


# -- class 5: seebench score on damaged units -------------------------------------------------


def _score(capsys, *paths):
    return cli(capsys, ["score", *map(str, paths)])  # eval's bootstrap: the same run hash


def test_score_on_intact_units_works(out, capsys):
    code, stdout, stderr = _score(capsys, _folder(out))
    assert code == 0, stderr
    assert len([ln for ln in stdout.splitlines() if "score(s) computed" in ln]) == len(TASKS)


@pytest.mark.parametrize("damage", ["samples_a_folder", "truncated", "samples_edited", "nan"])
def test_score_on_a_damaged_unit_says_why_in_one_line(out, capsys, damage):
    folder = _folder(out)
    path = folder / "t0.json"
    if damage == "samples_a_folder":
        (folder / "t0.samples.jsonl").unlink()
        (folder / "t0.samples.jsonl").mkdir()
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    elif damage == "samples_edited":
        samples = folder / "t0.samples.jsonl"
        samples.write_bytes(samples.read_bytes().replace(b'"id"', b'"id" ', 1))
    else:
        _set_metric(path, "NaN")
    code, stdout, stderr = _score(capsys, path)
    assert code == 1 and "Traceback" not in stderr
    [line] = stderr.splitlines()
    assert line.startswith(f"{path}: not scored: ")


def test_score_reports_a_failing_write_in_one_line(out, capsys, monkeypatch):
    from seebench.runner import rescore

    def scores_is_a_file(*args, **kwargs):
        raise NotADirectoryError(20, "Not a directory", "t0.artifacts/scores/x.jsonl")

    monkeypatch.setattr(rescore, "score_unit", scores_is_a_file)
    path = _folder(out) / "t0.json"
    code, _, stderr = _score(capsys, path)
    assert code == 1 and stderr.splitlines() == [
        f"{path}: not scored: cannot score: Not a directory"
    ]


def test_a_kill_between_the_two_writes_of_score_loses_nothing(out, capsys, monkeypatch):
    from seebench.results import verify
    from seebench.results.verify import pending_samples_path, verify_result
    from seebench.runner import rescore

    folder = _folder(out)
    path, samples = folder / "t0.json", folder / "t0.samples.jsonl"
    before = [json.loads(line)["prediction"] for line in samples.read_text().splitlines()]
    # stopped after the result (the commit) and before the samples move into place
    monkeypatch.setattr(rescore, "settle_pending_samples", lambda *a: None)
    assert _score(capsys, path)[0] == 0
    assert pending_samples_path(samples).exists()
    monkeypatch.undo()
    check = verify_result(path)  # what the next eval does first: finishes the move
    assert check.problem is None and not pending_samples_path(samples).exists()
    after = [json.loads(line)["prediction"] for line in samples.read_text().splitlines()]
    assert after == before
    code, _, stderr = cli(capsys, _evaluate(out))
    assert code == 0 and "recomputing" not in stderr
    assert verify.settle_pending_samples  # the real function is back


def test_a_kill_before_the_result_is_written_leaves_the_old_unit_trusted(out, capsys):
    from seebench.results.verify import pending_samples_path, verify_result

    folder = _folder(out)
    samples = folder / "t0.samples.jsonl"
    pending_samples_path(samples).write_text('{"half": "written"}\n')
    check = verify_result(folder / "t0.json")
    assert check.problem is None  # the result never named the pending file: ignored
    code, _, stderr = cli(capsys, _evaluate(out))
    assert code == 0 and "recomputing" not in stderr


# -- class 6: results filed under another name -----------------------------------------------


@pytest.mark.parametrize("how", ["copy", "link", "other_method", "other_model"])
def test_check_reports_a_result_filed_where_eval_would_not_trust_it(out, capsys, how):
    folder = _folder(out)
    if how == "copy":
        shutil.copy(folder / "t0.json", folder / "t1.json")
        shutil.copy(folder / "t0.samples.jsonl", folder / "t1.samples.jsonl")
        target, reason = folder / "t1.json", "filed as t1.json"
    elif how == "link":
        (folder / "t1.json").unlink()
        os.symlink(folder / "t0.json", folder / "t1.json")
        target, reason = folder / "t1.json", "symbolic link"
    else:
        parent = out / ("other-model" if how == "other_model" else "majority")
        elsewhere = parent / ("slow-echo" if how == "other_model" else "other-method")
        elsewhere.mkdir(parents=True)
        for name in ("t2.json", "t2.samples.jsonl"):
            shutil.copy(folder / name, elsewhere / name)
        target = elsewhere / "t2.json"
        reason = "of model" if how == "other_model" else "of method"
    code, lines = _check_lines(capsys, out)
    [line] = [ln for ln in lines if f"{target}:" in ln]
    assert code == 1 and line.startswith("BROKEN") and reason in line, line
