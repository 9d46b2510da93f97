"""One damaged file of each kind: ``results check`` names each one, a rerun recomputes each
with one logged line (never a traceback), and damaged cached data is refused by name."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from seebench.data.cache import cache_damage, cached_file, store_file
from tests.reliability.helpers import make_tasks, unit_lines


def _edit(key, value):
    def change(result_path, samples_path):
        result = json.loads(result_path.read_text())
        result[key] = value
        result_path.write_text(json.dumps(result))

    return change


def _samples(change):
    return lambda result_path, samples_path: samples_path.write_bytes(
        change(samples_path.read_bytes())
    )


DAMAGE = {
    "truncated_json": (lambda r, s: r.write_bytes(r.read_bytes()[:200]), "not valid JSON"),
    "json_array": (lambda r, s: r.write_text("[]"), "expected a JSON object, found an array"),
    "not_a_result": (
        lambda r, s: r.write_text('{"status": "ok", "run": "x"}'),
        "has no schema_version: not a seebench result file",
    ),
    "non_utf8": (lambda r, s: r.write_bytes(b"\xff\xfe{}"), "not UTF-8 text (byte 0)"),
    "directory": (
        lambda r, s: (r.unlink(), r.mkdir(), (r / "x").write_text("x")),
        "is a directory",
    ),
    "newer_schema": (_edit("schema_version", 2), "result schema version 2 by seebench"),
    "text_metric": (_edit("metrics", {"f1_macro": "n/a", "accuracy": 1.0}), "metrics.f1_macro"),
    "samples_missing": (
        lambda r, s: s.unlink(),
        "samples file samples_missing.samples.jsonl is missing",
    ),
    "samples_truncated": (_samples(lambda b: b[:150]), "lines for n = 4"),
    "samples_garbage_line": (
        _samples(lambda b: b.replace(b"\n", b"\nxx", 1)),
        "line 2 is not a sample record",
    ),
    "samples_edited": (
        _samples(lambda b: b.replace(b'"score": 1.0', b'"score": 0.0', 1)),
        "has sha256",
    ),
}


def test_each_damaged_result_is_named_then_recomputed(tmp_path, monkeypatch, capsys):
    task_dir = make_tasks(tmp_path, sorted(DAMAGE))
    out = tmp_path / "out"
    folder = out / "majority" / "slow-echo"
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(task_dir))
    evaluate = [
        "eval",
        "--model",
        "majority",
        "--method",
        "slow-echo",
        "--tasks",
        "tmp",
        "--output",
        str(out),
        "--no-progress",
    ]
    assert cli(capsys, evaluate)[0] == 0
    for name, (damage, _) in DAMAGE.items():
        damage(folder / f"{name}.json", folder / f"{name}.samples.jsonl")

    code, stdout, stderr = cli(capsys, ["results", "check", str(out)])
    assert code == 1 and stderr == ""
    lines = stdout.splitlines()
    for name, (_, reason) in DAMAGE.items():
        [line] = [line for line in lines if f"/{name}.json:" in line]
        assert line.startswith("BROKEN") and reason in line, line
    assert lines[-1].startswith(f"{len(DAMAGE)} result files: 0 ok, {len(DAMAGE)} broken")

    code, _, stderr = cli(capsys, evaluate)  # a crash would raise here, not exit
    recomputed = [line for line in stderr.splitlines() if ": recomputing: " in line]
    assert len(recomputed) == len(DAMAGE)
    [failed] = [line for line in unit_lines(stderr, "directory") if ": failed: " in line]
    assert "cannot write the result" in failed and code == 1  # a directory is never deleted

    shutil.rmtree(folder / "directory.json")
    assert cli(capsys, evaluate)[0] == 0
    code, stdout, _ = cli(capsys, ["results", "check", str(out)])
    assert code == 0, stdout
    assert stdout.splitlines()[-1].startswith(
        f"{len(DAMAGE)} result files: {len(DAMAGE)} ok, 0 broken"
    )


def cli(capsys, args):
    """``seebench ARGS`` in this process: (exit code, stdout, stderr)."""
    from seebench.cli.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(args)
    captured = capsys.readouterr()
    return exit_info.value.code, captured.out, captured.err


CONTENT = b"".join(
    json.dumps({"title": f"issue {i}", "bug": i % 2}).encode() + b"\n" for i in range(30)
)
SHA = hashlib.sha256(CONTENT).hexdigest()
CACHE_DAMAGE = {
    "rows_deleted": lambda p: p.write_bytes(b"".join(CONTENT.splitlines(keepends=True)[:-20])),
    "truncated": lambda p: p.write_bytes(CONTENT[:100]),
    "emptied": lambda p: p.write_bytes(b""),
    "appended": lambda p: p.write_bytes(CONTENT + b"{}\n"),
    "same_size_edit": lambda p: p.write_bytes(CONTENT.replace(b'"bug": 1', b'"bug": 0', 1)),
}


@pytest.mark.parametrize("kind", sorted(CACHE_DAMAGE))
def test_each_kind_of_damaged_cache_file_is_refused_by_name(tmp_path, kind):
    original = tmp_path / "issues.jsonl"
    original.write_bytes(CONTENT)
    path = store_file(original, SHA)
    assert cached_file(SHA) == path  # verified (and stamped) once
    CACHE_DAMAGE[kind](path)
    assert cached_file(SHA) is None
    assert cache_damage(SHA).startswith(f"cached data file {path} is damaged (sha256 ")
    store_file(original, SHA)  # what 'data import' does with a good copy
    assert cached_file(SHA) == path and cache_damage(SHA) is None
