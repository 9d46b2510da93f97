"""The plugin contract type-checks: ``scripts/typecheck.sh`` (mypy over the public API, the
hooks, the plugin manager and the registry, untyped definitions disallowed) reports nothing.
Skipped where mypy is not installed (the ``dev`` extra installs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT


def _mypy() -> str:
    found = shutil.which("mypy", path=str(Path(sys.executable).parent)) or shutil.which("mypy")
    if found is None:
        pytest.skip("mypy is not installed (pip install -e '.[dev]')")
    return found


def test_the_plugin_contract_type_checks() -> None:
    env = {**os.environ, "MYPY": _mypy(), "PYTHON": sys.executable}
    done = subprocess.run(
        ["bash", str(REPO_ROOT / "scripts" / "typecheck.sh")],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in 8 source files" in done.stdout
