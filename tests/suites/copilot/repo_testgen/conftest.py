"""Fixtures of the repository test scenario's tests: a tiny Python repository and the fake
environments (see :mod:`.fake_envs`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from seebench.suites.copilot.repos.staging import StagedRepo

SHARED_DATA = Path(__file__).resolve().parents[4] / ".." / "shared" / "data"

CALC = '''"""A tiny module."""


def add(a, b):
    """Sum of a and b."""
    total = a + b
    return total


def other():
    return 1
'''

OWN_TEST = """from pkg.calc import add, other


def test_add():
    assert add(1, 2) == 3


def test_other():
    assert other() == 1
"""


def write_tiny_repo(root: Path) -> Path:
    """``pkg/calc.py`` (``add`` at lines 4-7) and ``tests/test_calc.py`` under ``root``."""
    (root / "pkg").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "calc.py").write_text(CALC, encoding="utf-8")
    (root / "tests" / "test_calc.py").write_text(OWN_TEST, encoding="utf-8")
    return root


@pytest.fixture
def tiny_repo(tmp_path) -> Path:
    return write_tiny_repo(tmp_path / "tiny")


STAGED = StagedRepo("me/tiny", "a" * 40, "python", True, Path("/nonexistent/tiny.tar"))


@pytest.fixture
def staged() -> StagedRepo:
    return STAGED


def make_target() -> dict:
    return {
        "case_id": "case-1",
        "repo": "me/tiny",
        "commit": "a" * 40,
        "language": "python",
        "file_path": "pkg/calc.py",
        "method": "add",
        "first_line": 4,
        "last_line": 7,
        "tar_sha256": "",
        "module": "pkg.calc",
        "unavailable": "",
    }


@pytest.fixture
def target() -> dict:
    return make_target()


@pytest.fixture
def mirror() -> Path:
    """The data mirror beside the repository; skips the test without it."""
    if not (SHARED_DATA / "MANIFEST.tsv").is_file():
        pytest.skip("no ../shared/data mirror")
    return SHARED_DATA.resolve()
