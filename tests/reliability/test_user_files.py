"""User-given files read safely (class 5 of round 2): a models file, a comparison CSV, a
score-cache line, a data-cache entry, an export folder and a task's data file that are a FIFO,
a device, too large, undecodable, malformed or absurd are each one line naming the file
(or a recomputation), never a hang, a traceback or a wrong number."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from seebench.errors import SeebenchError
from tests.conftest import REPO_ROOT
from tests.reliability.helpers import make_tasks
from tests.reliability.test_damaged_files import cli


def _seebench(args, env=None, timeout=60):
    """``seebench ARGS`` in a subprocess (a hang is a failure, not a stuck suite)."""
    return subprocess.run(
        [sys.executable, "-m", "seebench.cli.main", *args],
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env or {})},
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=timeout,
    )


def _one_error_line(run, name) -> str:
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr
    [line] = [ln for ln in run.stderr.splitlines() if ln.startswith("error:")]
    assert name in line
    return line


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "not-utf8"])
def test_a_models_file_that_is_not_a_text_file_is_one_line(tmp_path, kind):
    path = tmp_path / "models.txt"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path = "/dev/zero"
    elif kind == "not-utf8":
        path.write_bytes(b"majority\n\xff\xfe\xfa\n")
    task_dir = make_tasks(tmp_path, ["t0"])
    env = {
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(task_dir),
        "SEEBENCH_HOME": str(tmp_path / "home"),
    }
    args = ["eval", "--models-file", str(path), "--tasks", "tmp", "--output", str(tmp_path / "o")]
    _one_error_line(_seebench([*args, "--no-progress"], env), str(path))


CSV_HEADER = "model,task,score\n"


def _csv(tmp_path, content: bytes | str):
    path = tmp_path / "scores.csv"
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


BAD_CSVS = {
    "long-field": CSV_HEADER + "a,t1," + "9" * 200_000 + "\n",
    "utf-16": (CSV_HEADER + "a,t1,0.5\nb,t1,0.7\n").encode("utf-16"),
    "nul-row": CSV_HEADER + "a,t1,0.5\n" + "\0" * 64 + "\n",
    "short-row": CSV_HEADER + "a,t1,0.5\nb,t1\n",
    "underscore-number": CSV_HEADER + "a,t1,1_0\nb,t1,0.5\n",
    "1e308": CSV_HEADER + "a,t1,1e308\nb,t1,0.5\na,t2,1e308\nb,t2,0.4\n",
    "hex": CSV_HEADER + "a,t1,0x10\nb,t1,0.5\n",
}


@pytest.mark.parametrize("kind", sorted(BAD_CSVS))
def test_a_bad_comparison_csv_is_one_line(tmp_path, capsys, kind):
    path = _csv(tmp_path, BAD_CSVS[kind])
    code, out, err = cli(capsys, ["compare", str(path), "--out", str(tmp_path / "board")])
    assert code == 1, out + err
    [line] = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert str(path) in line and len(line) < 400
    assert "999999999" not in line  # the 200,000-character field is not quoted


def test_a_fifo_comparison_csv_is_one_line_not_a_hang(tmp_path):
    path = tmp_path / "scores.csv"
    os.mkfifo(path)
    run = _seebench(["compare", str(path), "--out", str(tmp_path / "board")])
    _one_error_line(run, str(path))


def test_a_plain_comparison_csv_still_reads(tmp_path, capsys):
    rows = "".join(
        f"{m},t{t},{0.1 * (t + 1) + (0.2 if m == 'b' else 0):.3f}\n" for m in "ab" for t in range(3)
    )
    path = _csv(tmp_path, "\ufeff" + CSV_HEADER + rows)  # with a BOM, as Excel saves it
    code, out, err = cli(capsys, ["compare", str(path), "--out", str(tmp_path / "board")])
    assert code == 0, out + err


@pytest.mark.parametrize(
    "line", ["[" * 100_000, "{" * 100_000, '{"key": "k", "score": ' + "[" * 50_000 + "}"]
)
def test_a_deeply_nested_score_cache_line_is_recomputed(tmp_path, line):
    from seebench.scoring.run import _read_cache

    path = tmp_path / "scores.jsonl"
    good = {"key": "good", "score": {"value": 1.0}}
    path.write_text(line + "\n" + json.dumps(good) + "\n")
    cached = _read_cache(path)
    assert list(cached) == ["good"] and cached["good"].value == 1.0


def test_data_import_onto_a_cache_entry_that_is_a_folder_is_one_line(tmp_path, monkeypatch):
    import hashlib

    from seebench.data.cache import data_dir, store_file

    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    source = tmp_path / "rows.jsonl"
    source.write_text('{"a": 1}\n')
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    entry = data_dir() / digest[:2] / digest / "rows.jsonl"
    entry.mkdir(parents=True)
    (entry / "keep").write_text("x")
    with pytest.raises(SeebenchError, match="is a folder"):
        store_file(source, digest, "rows.jsonl")
    assert (entry / "keep").read_text() == "x"


@pytest.mark.parametrize("target", ["/proc/self/x", "/proc/version/x"])
def test_view_export_to_an_unwritable_place_is_one_line(tmp_path, capsys, target):
    task_dir = make_tasks(tmp_path, ["t0"])
    os.environ["SEEBENCH_PLUGINS"] = "tests.plugins.tmp_tasks_plugin"
    os.environ["SEEBENCH_TEST_TASK_DIR"] = str(task_dir)
    try:
        args = ["eval", "--model", "majority", "--tasks", "tmp"]
        assert cli(capsys, [*args, "--output", str(tmp_path / "o"), "--no-progress"])[0] == 0
        code, out, err = cli(capsys, ["view", str(tmp_path / "o"), "--export", target])
    finally:
        del os.environ["SEEBENCH_PLUGINS"], os.environ["SEEBENCH_TEST_TASK_DIR"]
    assert code == 1, out + err
    [line] = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert target in line


@pytest.mark.parametrize("reader", ["read_csv", "read_jsonl", "read_json"])
def test_a_huge_sparse_data_file_is_refused_at_once(tmp_path, reader):
    from seebench.data import readers
    from seebench.data.cache import TABLE_MAX_BYTES
    from seebench.safe_files import UnsafeFileError

    path = tmp_path / "rows.data"
    with open(path, "wb") as handle:  # sparse: no disk used, no memory either
        handle.truncate(TABLE_MAX_BYTES + 1)
    with pytest.raises(UnsafeFileError, match="more than"):
        getattr(readers, reader)(path)
