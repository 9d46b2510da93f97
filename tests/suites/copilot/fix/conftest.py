"""Fixtures of the fix scenario's tests: the analyzers' tools folder and the data mirror.

The tools folder is the one of the environment the tests start in (``seebench copilot tools
install`` put it there), kept when each test gets its own ``SEEBENCH_HOME``. Tests that run
analyzers skip where the tools or the sandbox are missing, and fail instead under
``SEEBENCH_REQUIRE_SANDBOX=1`` or ``SEEBENCH_REQUIRE_NODE=1`` (CI installs both; see
``tests/requirements.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.data.file_sets import FileSet, read_file_list
from seebench.suites.copilot.fix import tools
from tests.conftest import REPO_ROOT
from tests.requirements import unavailable

TOOLS = tools.tools_dir()
MIRROR = (REPO_ROOT / ".." / "shared" / "data" / "copilot_harness").resolve()
FILE_LIST = REPO_ROOT / "task_configs/copilot/data/copilot_fix.sha256"


def _missing(reason: str) -> None:
    unavailable("sandbox", reason)


@pytest.fixture(autouse=True)
def tools_folder(monkeypatch) -> Path:
    """The real tools folder, whatever ``SEEBENCH_HOME`` a test uses."""
    monkeypatch.setenv(tools.TOOLS_ENV, str(TOOLS))
    return TOOLS


@pytest.fixture(scope="session")
def sandbox_ok() -> None:
    from seebench.sandbox import open_sandbox

    box = open_sandbox()
    reason = box.reason
    box.close()
    if not box.available:
        _missing(f"no sandbox: {reason}")


@pytest.fixture
def analyzers_ok(sandbox_ok, tools_folder) -> None:
    """Skip (fail in CI) unless every analyzer is installed at its pinned version."""
    from seebench.errors import SeebenchError
    from seebench.suites.copilot.fix.analyzers import ANALYZERS, analyzer

    for name in ANALYZERS:
        try:
            analyzer(name).check_installed()
        except SeebenchError as exc:
            unavailable("npm", str(exc))


@pytest.fixture(scope="session")
def mirror_files() -> FileSet:
    """The fix file set read straight from the data mirror (skips without the mirror)."""
    if not MIRROR.is_dir():
        pytest.skip("no ../shared/data/copilot_harness mirror")
    paths = {}
    for member in read_file_list(FILE_LIST):
        local = (
            MIRROR / "fix" / member.path.removeprefix("data/fix/")
            if member.path.startswith("data/fix/")
            else MIRROR / member.path
        )
        paths[member.path] = local
    return FileSet(FILE_LIST, paths)
