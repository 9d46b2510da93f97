"""``seebench data add``: a user-supplied file for an unpinned source, trusted on first use,
recorded by hash and named in a warning of every result that uses it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from seebench.cli.main import main
from tests.conftest import ISSUE_TITLES


def _cli(capsys: pytest.CaptureFixture, args: list[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    captured = capsys.readouterr()
    return int(exit_info.value.code or 0), captured.out, captured.err


def _task(root: Path) -> Path:
    tasks = root / "tasks"
    tasks.mkdir(parents=True)
    (tasks / "upstream.yaml").write_text(
        textwrap.dedent(
            """
            name: upstream
            suite: tmp
            version: 1
            type: binary
            labels:
              - {name: bug, value: 1}
              - {name: other, value: 0}
            data:
              sources:
                - {url: "https://example.org/issues.jsonl", sha256: unpinned, format: jsonl}
              prepare:
                - {step: select, columns: {input: title, target: bug}}
            metrics: [f1_macro, accuracy]
            """
        )
    )
    return tasks


def _rows(path: Path, rows: int = 40) -> Path:
    with path.open("w") as handle:
        for i in range(rows):
            title, label = ISSUE_TITLES[i % len(ISSUE_TITLES)]
            handle.write(json.dumps({"title": f"{title} (#{i})", "bug": label}) + "\n")
    return path


def test_a_user_file_is_recorded_used_and_warned_about(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    tasks = _task(tmp_path)
    include = ["--include-path", str(tasks)]
    out = tmp_path / "out"
    evaluate = ["eval", "--model", "majority", "--tasks", "upstream", "--output", str(out),
                "--no-progress", *include]  # fmt: skip
    code, _, err = _cli(capsys, evaluate)
    assert code == 0 and "seebench data add upstream FILE" in err

    data = _rows(tmp_path / "downloaded.jsonl")
    code, out_text, _ = _cli(capsys, ["data", "add", "upstream", str(data), *include])
    assert code == 0 and "recorded" in out_text
    code, _, err = _cli(capsys, [*evaluate, "--force"])
    assert code == 0
    assert "warning: data file issues.jsonl is user-supplied" in err
    [result_path] = out.glob("majority/*/upstream.json")
    result = json.loads(result_path.read_text())
    assert result["status"] == "ok"
    digest = json.loads((tmp_path / "home" / "data" / "user_files.json").read_text())
    [entry] = digest["upstream"].values()
    sha = entry["sha256"]
    assert sha in result["data"]["checksums"].values()
    assert any(sha in line for line in result["warnings"])

    other = _rows(tmp_path / "other.jsonl", rows=30)
    code, _, err = _cli(capsys, ["data", "add", "upstream", str(other), *include])
    assert code == 1 and "was recorded" in err and "--replace" in err
    code, _, _ = _cli(capsys, ["data", "add", "upstream", str(other), "--replace", *include])
    assert code == 0
