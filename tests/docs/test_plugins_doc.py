"""docs/plugins.md is a plugin: its titled code blocks are written to a folder, loaded as a plugin,
and the commands of its bash block run against it (so the page cannot drift from what works).
``test_plugin_wheels.py`` builds the same files into a wheel and installs it."""

from __future__ import annotations

import json
import shlex
import tomllib
from pathlib import Path

import pytest

from seebench.cli.main import main
from tests.docs.doc_blocks import blocks, walkthrough_files, write_files


def _cli(capsys: pytest.CaptureFixture, args: list[str]) -> tuple[int, str]:
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_every_block_is_a_file_or_a_command() -> None:
    kinds = [(language, title is not None) for language, title, _ in blocks("plugins.md")]
    assert ("python", True) in kinds and ("yaml", True) in kinds
    for language, titled in kinds:
        assert titled or language in ("bash", "text"), language


def test_the_walkthrough_runs(tmp_path: Path, monkeypatch, capsys) -> None:
    files = walkthrough_files()
    commands: list[str] = []
    for language, title, text in blocks("plugins.md"):
        if language == "bash" and not title:
            commands += [line for line in text.splitlines() if line.strip()]
    write_files(files, tmp_path)
    project = tomllib.loads(files["pyproject.toml"])["project"]
    assert project["entry-points"]["seebench"] == {"severity": "severity_plugin"}
    compile(files["severity_plugin/__init__.py"], "severity_plugin/__init__.py", "exec")

    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    outputs = {}
    for line in commands:
        words = shlex.split(line)
        if words[0] == "export":
            for pair in words[1:]:
                name, _, value = pair.partition("=")
                if name == "SEEBENCH_PLUGINS":
                    monkeypatch.setenv(name, value)
            continue
        assert words[0] == "seebench", line
        code, output = _cli(
            capsys, [*words[1:], *(["--no-progress"] if words[1] == "eval" else [])]
        )
        assert code == 0, f"{line}\n{output}"
        outputs[line] = output

    assert "Level:" in outputs["seebench tasks show severity_both --prompt"]
    assert "low < medium < high" in outputs["seebench severity-scale"]
    for model, method in (
        ("majority", "baseline"),
        ("random", "baseline"),
        ("majority", "harm-words"),
    ):
        for task in ("severity_title", "severity_body", "severity_both"):
            result = json.loads(
                (tmp_path / "results" / model / method / f"{task}.json").read_text()
            )
            assert result["status"] == "ok", result.get("reason")
            assert 0.0 <= result["metrics"]["closeness"] <= 1.0
    harm = json.loads((tmp_path / "results/majority/harm-words/severity_body.json").read_text())
    assert harm["metrics"]["closeness"] > 0.5  # the harm words find the severe reports
    board = json.loads((tmp_path / "leaderboard" / "leaderboard.json").read_text())
    assert len(board["ranking"]) == 3 and len(board["tasks"]) == 3
