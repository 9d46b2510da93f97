"""Fixtures of the repository-level fix tests: the analyzers' tools folder of the environment
the tests start in (kept when each test gets its own ``SEEBENCH_HOME``), the sandbox, and
tiny hand-made repositories stored in the data cache as ``git archive``-like tars.

Tests that run analyzers skip where the tools or the sandbox are missing, and fail instead
under ``SEEBENCH_REQUIRE_SANDBOX=1`` or ``SEEBENCH_REQUIRE_NODE=1`` (CI installs both; see
``tests/requirements.py``).
"""

from __future__ import annotations

import io
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.requirements import unavailable

# the tools folder, the sandbox check and the skip-or-fail rule are part 1's fix fixtures
from tests.suites.copilot.fix.conftest import (  # noqa: E402,F401
    sandbox_ok,
    tools_folder,
)


@pytest.fixture
def analyzer_ok(sandbox_ok, tools_folder) -> Callable[[str], None]:  # noqa: F811
    """Call with an analyzer's name: skips (fails in CI) unless it is installed."""
    from seebench.errors import SeebenchError
    from seebench.suites.copilot.fix.analyzers import analyzer

    def check(name: str) -> None:
        try:
            analyzer(name).check_installed()
        except SeebenchError as exc:
            unavailable("npm", str(exc))

    return check


def make_tar(path: Path, files: dict[str, str], mtime: int = 1_700_000_000) -> Path:
    """A tar of ``files`` (relative path -> text) like ``git archive`` writes."""
    with tarfile.open(path, "w") as archive:
        for name, text in sorted(files.items()):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), mtime
            archive.addfile(info, io.BytesIO(data))
    return path


@pytest.fixture
def cached_repo(tmp_path) -> Callable[[dict[str, str]], str]:
    """Store a tiny repository's tar in the data cache; returns its sha256."""
    from seebench.data.cache import sha256_file, store_file

    def store(files: dict[str, str]) -> str:
        tar = make_tar(tmp_path / f"repo-{len(list(tmp_path.iterdir()))}.tar", files)
        digest = sha256_file(tar)
        store_file(tar, digest, tar.name)
        return digest

    return store
