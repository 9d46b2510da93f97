"""A missing analyzer is a skipped unit with the command that installs it, and the analyzers
live in one folder per machine, whatever ``SEEBENCH_HOME`` a run uses."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from seebench.data.dataset import prepare_rows
from seebench.errors import DataMissingError, MissingToolError
from seebench.suites.copilot.fix import tools
from seebench.suites.copilot.fix.types import copilot_fix_reproducible


def test_the_tools_folder_is_per_machine_not_per_home(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv(tools.TOOLS_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    machine = tmp_path / "xdg" / "seebench" / "tools" / "copilot-fix"
    for home in ("a", "b"):
        monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / home))
        assert tools.tools_dir() == machine
    legacy = tmp_path / "b" / "tools" / "copilot-fix"
    legacy.mkdir(parents=True)
    (legacy / "package.json").write_text("{}")
    assert tools.tools_dir() == legacy  # an older install under the home is still found
    machine.mkdir(parents=True)
    (machine / "package.json").write_text("{}")
    assert tools.tools_dir() == machine


def test_a_missing_npm_tool_is_a_missing_tool_error(tmp_path) -> None:
    with pytest.raises(MissingToolError, match="install it with 'seebench copilot tools install'"):
        tools.check_npm_tools(("eslint",), tmp_path)
    assert issubclass(MissingToolError, DataMissingError)  # the runner skips the unit


def test_the_reproducible_step_raises_the_missing_tool(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(tools.TOOLS_ENV, str(tmp_path / "empty"))
    row = {
        "case_id": "case-1",
        "analyzer": "eslint",
        "rule": "no-undef",
        "message": "'x' is not defined.",
        "recorded_line": 1,
        "language": "javascript",
        "file_path": "src/a.js",
        "file": "console.log(x);\n",
    }
    with pytest.raises(MissingToolError) as caught:
        copilot_fix_reproducible([row])
    assert "eslint 9.9.0 is not installed" in str(caught.value)


def test_prepare_keeps_the_missing_tool_line_without_the_step_path() -> None:
    def step(rows):
        raise MissingToolError("pyright 1.1.378 is not installed in /x: install it with 'y'")

    entry = SimpleNamespace(load=lambda: step)
    registry = SimpleNamespace(prepare_step=lambda name: entry)
    task = SimpleNamespace(path="t.yaml", data={"prepare": [{"step": "needs_tool"}]})
    with pytest.raises(MissingToolError) as caught:
        prepare_rows(task, [{"a": 1}], registry)  # type: ignore[arg-type]
    assert "data.prepare" not in str(caught.value)
