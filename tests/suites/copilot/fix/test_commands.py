"""``seebench copilot tools check`` and ``seebench copilot fix-cases`` from the command line."""

from __future__ import annotations

from tests.cli.test_cli import run_cli


def test_tools_check_names_what_is_missing_and_how_to_install_it(tmp_path):
    env = {"SEEBENCH_COPILOT_TOOLS": str(tmp_path / "empty")}
    code, stdout, stderr = run_cli(["copilot", "tools", "check"], env=env)
    assert code == 1, stdout + stderr
    assert "pyright  --  pyright 1.1.378 is not installed" in stdout
    assert "install it with 'seebench copilot tools install'" in stdout
    assert "pylint   ok" in stdout or "pylint   --" in stdout


def test_fix_cases_without_the_data_is_one_line_that_says_how_to_import_it(tmp_path):
    code, stdout, stderr = run_cli(["copilot", "fix-cases", "--analyzer", "eslint"])
    assert code != 0
    assert "Traceback" not in stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "seebench data import" in lines[0], stderr
