"""The plugin contract type-checks: ``scripts/typecheck.sh --contract`` (mypy over the public
API, the hooks, the plugin manager and the registry, untyped definitions disallowed) reports
nothing. (``.ci/run`` runs ``scripts/typecheck.sh``: the whole package, which takes minutes.)
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
        ["bash", str(REPO_ROOT / "scripts" / "typecheck.sh"), "--contract"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found in 8 source files" in done.stdout


@pytest.mark.slow
def test_the_docs_plugin_and_the_example_plugin_type_check(tmp_path: Path) -> None:
    """Their ``register_*`` hooks are annotated with the Protocols, so mypy checks every
    registration call (a misspelt keyword fails here)."""
    from tests.docs.doc_blocks import walkthrough_files, write_files

    docs_plugin = write_files(walkthrough_files(), tmp_path / "docs") / "severity_plugin"
    example = REPO_ROOT / "plugins" / "seebench-example" / "seebench_example"
    done = subprocess.run(
        [
            _mypy(),
            "--python-executable",
            sys.executable,
            "--follow-imports=silent",
            "--ignore-missing-imports",
            "--cache-dir",
            str(tmp_path / "cache"),
            str(docs_plugin / "__init__.py"),
            str(example),
        ],
        cwd=tmp_path,
        env={**os.environ, "MYPYPATH": str(REPO_ROOT)},  # this checkout's seebench
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout + done.stderr
