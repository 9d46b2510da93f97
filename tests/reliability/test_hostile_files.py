"""Hostile files (classes 1-3): links where seebench writes, paths out of a task's folder, FIFOs
and oversized files where it reads. Nothing is written through a link, nothing outside a task
is read, nothing blocks, and each refusal is one line that never quotes the refused file."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from seebench import safe_files
from seebench.safe_files import UnsafeFileError
from tests.conftest import REPO_ROOT
from tests.reliability.helpers import slow_echo_eval, unit_lines, use_tmp_tasks
from tests.reliability.test_damaged_files import cli

SECRET = "TOP-SECRET-CONTENT-1234"


@pytest.fixture
def victim(tmp_path):
    path = tmp_path / "victim.txt"
    path.write_text(SECRET)
    return path


def _evaluate(out):
    return slow_echo_eval(out)


@pytest.fixture
def tasks_env(tmp_path, monkeypatch):
    use_tmp_tasks(tmp_path, monkeypatch)
    return tmp_path / "out"


# -- class 1: writes never follow a link -------------------------------------------------------


@pytest.mark.parametrize("name", [".t0.lock", "t0.json", "t0.samples.jsonl"])
def test_eval_never_writes_through_a_planted_link(tasks_env, victim, capsys, name):
    folder = tasks_env / "majority" / "slow-echo"
    folder.mkdir(parents=True)
    os.symlink(victim, folder / name)
    code, _, stderr = cli(capsys, _evaluate(tasks_env))
    assert victim.read_text() == SECRET  # neither truncated nor written
    assert code == 1
    lines = unit_lines(stderr, "t0")
    assert any("symbolic link" in ln for ln in lines) and SECRET not in stderr
    assert (folder / name).is_symlink()


def test_a_linked_score_cache_is_neither_read_nor_appended(tmp_path, victim):
    from seebench.scoring.run import _read_cache

    scores = tmp_path / "artifacts" / "scores"
    scores.mkdir(parents=True)
    os.symlink(victim, scores / "s.jsonl")
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        safe_files.append_text(scores / "s.jsonl", "x\n", root=tmp_path / "artifacts")
    assert victim.read_text() == SECRET
    assert _read_cache(scores / "missing.jsonl") == {}


def test_a_linked_folder_below_the_root_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    root = tmp_path / "artifacts"
    root.mkdir()
    os.symlink(elsewhere, root / "scores")
    with pytest.raises(UnsafeFileError, match="folder .*scores is a symbolic link"):
        safe_files.atomic_write_text(root / "scores" / "a.jsonl", "x", root=root)
    with pytest.raises(UnsafeFileError):
        safe_files.append_text(root / "scores" / "a.jsonl", "x", root=root)
    assert list(elsewhere.iterdir()) == []


def test_open_for_write_refuses_links_fifos_and_folders(tmp_path, victim):
    link = tmp_path / "link"
    os.symlink(victim, link)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (link, fifo, tmp_path):
        with pytest.raises(OSError):  # never blocks on the FIFO (no reader)
            os.close(safe_files.open_for_write(path))
    assert victim.read_text() == SECRET
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        safe_files.open_lock_file(link)


def test_the_data_cache_never_stores_through_a_link(tmp_path, victim, monkeypatch):
    import hashlib

    from seebench.data.cache import data_dir, store_file

    source = tmp_path / "data.csv"
    source.write_text("a,b\n1,2\n")
    sha = hashlib.sha256(source.read_bytes()).hexdigest()
    folder = data_dir() / sha[:2] / sha
    folder.mkdir(parents=True)
    os.symlink(victim, folder / "data.csv")
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        store_file(source, sha)
    assert victim.read_text() == SECRET


def test_model_response_cache_refuses_a_link(tmp_path, victim):
    from seebench.models.cache import ResponseCache

    cache = ResponseCache(tmp_path / "responses")
    key = "ab" * 32
    cache.path(key).parent.mkdir(parents=True)
    os.symlink(victim, cache.path(key))
    with pytest.raises(UnsafeFileError):
        cache.put(key, {"text": "hello"})
    assert victim.read_text() == SECRET
    assert cache.get(key) is None  # the victim is not JSON: never trusted


# -- class 2: reads stay inside the task -------------------------------------------------------


def _source(directory, value):
    """The ``path:`` source a task file in ``directory`` declares with ``value``."""
    from seebench.data.sources import Source

    return Source(
        task="leak",
        index=0,
        name="rows",
        format="csv",
        url=None,
        sha256="unpinned",
        path=directory / value,
        options={},
        split=None,
        base_dir=directory,
    )


@pytest.mark.parametrize("kind", ["absolute", "dotdot", "symlink", "linked_folder"])
def test_a_path_source_outside_the_task_is_refused_without_quoting_it(tmp_path, victim, kind):
    from seebench.data.sources import require_local
    from seebench.errors import DataMissingError

    tasks = tmp_path / "tasks"
    tasks.mkdir()
    value = {
        "absolute": str(victim),
        "dotdot": "../victim.txt",
        "symlink": "rows.csv",
        "linked_folder": "sub/victim.txt",
    }[kind]
    if kind == "symlink":
        os.symlink(victim, tasks / "rows.csv")
    if kind == "linked_folder":
        os.symlink(tmp_path, tasks / "sub")
    source = _source(tasks, value)
    assert source.locate() is None
    with pytest.raises(DataMissingError, match="outside the task's folder") as error:
        require_local(source)
    assert SECRET not in str(error.value) and "\n" not in str(error.value)


def test_a_path_source_inside_the_task_is_read(tmp_path):
    from seebench.data.sources import require_local

    tasks = tmp_path / "tasks"
    (tasks / "data").mkdir(parents=True)
    (tasks / "data" / "rows.csv").write_text("text,label\nx,a\n")
    source = _source(tasks, "data/rows.csv")
    assert require_local(source) == tasks / "data" / "rows.csv"


@pytest.mark.parametrize("target", ["victim", "outside_yaml"])
def test_an_include_outside_the_task_or_not_yaml_is_refused(tmp_path, victim, target):
    from seebench.errors import TaskSpecError
    from seebench.tasks.yaml_loader import load_task_document

    tasks = tmp_path / "tasks"
    tasks.mkdir()
    outside = tmp_path / "other.yaml"
    outside.write_text(f"prompt: {{context: {SECRET}}}\n")
    name = str(victim) if target == "victim" else "../other.yaml"
    task = tasks / "t.yaml"
    task.write_text(f"include: {name}\nname: t\n")
    with pytest.raises(TaskSpecError, match="is not a .yaml file inside") as error:
        load_task_document(task)
    assert SECRET not in str(error.value)


def test_a_linked_include_pointing_at_a_secret_is_refused(tmp_path, victim):
    from seebench.errors import TaskSpecError
    from seebench.tasks.yaml_loader import load_task_document

    tasks = tmp_path / "tasks"
    tasks.mkdir()
    os.symlink(victim, tasks / "_base.yaml")
    (tasks / "t.yaml").write_text("include: _base.yaml\nname: t\n")
    with pytest.raises(TaskSpecError) as error:
        load_task_document(tasks / "t.yaml")
    assert SECRET not in str(error.value)


# -- class 3: only regular files, bounded, never blocking -------------------------------------


def test_results_check_names_a_fifo_instead_of_hanging(tmp_path):
    folder = tmp_path / "out" / "m" / "method"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "task.json")
    os.mkfifo(folder / "other.samples.jsonl")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "seebench.cli.main", "results", "check", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    [line] = [ln for ln in done.stdout.splitlines() if "task.json" in ln]
    assert line.startswith("BROKEN") and "not a regular file" in line


def test_eval_recomputes_a_unit_whose_result_is_a_fifo(tasks_env, capsys):
    assert cli(capsys, _evaluate(tasks_env))[0] == 0
    result = tasks_env / "majority" / "slow-echo" / "t0.json"
    result.unlink()
    os.mkfifo(result)
    code, _, stderr = cli(capsys, _evaluate(tasks_env))
    # never opened (that would block): named, recomputed, and replaced by a regular file
    assert code == 0
    [line] = unit_lines(stderr, "t0")
    assert "recomputing" in line and "not a regular file" in line
    assert result.is_file() and not result.is_symlink()


@pytest.mark.parametrize("kind", ["fifo", "oversized", "folder", "device"])
def test_readers_refuse_what_is_not_a_small_regular_file(tmp_path, kind):
    path = tmp_path / "x.json"
    limit = 1024
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "oversized":
        path.write_bytes(b"x" * (limit + 1))
    elif kind == "folder":
        path.mkdir()
    else:
        path = "/dev/zero"
    with pytest.raises(OSError):
        safe_files.read_bytes(path, limit)


def test_a_fifo_task_file_and_data_file_do_not_hang(tmp_path):
    from seebench.data.readers import read_jsonl
    from seebench.errors import TaskSpecError
    from seebench.tasks.yaml_loader import load_yaml_strict

    os.mkfifo(tmp_path / "t.yaml")
    os.mkfifo(tmp_path / "rows.jsonl")
    with pytest.raises(TaskSpecError, match="not a regular file"):
        load_yaml_strict(tmp_path / "t.yaml")
    with pytest.raises(UnsafeFileError, match="not a regular file"):
        read_jsonl(tmp_path / "rows.jsonl")


def test_gzip_and_plain_data_files_still_read(tmp_path):
    import gzip

    from seebench.data.readers import read_jsonl

    (tmp_path / "a.jsonl").write_text('{"a": 1}\n')
    (tmp_path / "b.jsonl").write_bytes(gzip.compress(b'{"a": 2}\n'))
    assert read_jsonl(tmp_path / "a.jsonl") == [{"a": 1}]
    assert read_jsonl(tmp_path / "b.jsonl") == [{"a": 2}]


@pytest.mark.parametrize("reader", ["read_csv", "read_parquet", "read_xlsx", "read_conll"])
def test_every_data_reader_refuses_a_fifo(tmp_path, reader):
    from seebench.data import readers

    fifo = tmp_path / "rows.data"
    os.mkfifo(fifo)
    with pytest.raises(UnsafeFileError, match="not a regular file"):
        getattr(readers, reader)(fifo)
