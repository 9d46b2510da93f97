"""What a model's change to a repository may touch before its test suite is run.

A repository's test run is only as trustworthy as its test infrastructure: a ``conftest.py``
with a ``pytest_runtest_makereport`` wrapper, a ``pytest.ini`` whose ``addopts`` loads a
plugin, a ``*.dist-info`` folder that declares a ``pytest11`` entry point, a ``.pth`` or
``sitecustomize.py`` run at interpreter start, or an edit of the very test the scenario runs
can each turn a failing suite into a passing one. A change that touches any of them is
refused before anything runs, with the verdict :data:`TAMPERED` (counted apart from
``failed``). The answer of a test-generation scenario is a test file: exactly that file may
be added (``answer_tests``), nothing else of the infrastructure. See ``docs/sandbox.md``,
"Repository suites".
"""

from __future__ import annotations

import fnmatch
from collections.abc import Collection, Iterable, Mapping
from pathlib import PurePosixPath

#: the verdict of a run refused (or caught) for touching the test infrastructure
TAMPERED = "tampered"

#: file names that configure or extend a test run, wherever they lie in the tree
INFRASTRUCTURE_NAMES = frozenset(
    {
        "conftest.py",
        "pytest.ini",
        ".pytest.ini",
        "pyproject.toml",
        "setup.cfg",
        "tox.ini",
        "sitecustomize.py",
        "usercustomize.py",
        "package.json",
    }
)
#: name patterns of the same (node runners' configuration files included)
INFRASTRUCTURE_PATTERNS = (
    "*.pth",
    "jest.config.*",
    "vitest.config.*",
    "vitest.workspace.*",
    ".mocharc*",
    "babel.config.*",
    ".babelrc*",
)
#: folders whose contents Python reads as installed distributions (entry points: plugins)
METADATA_SUFFIXES = (".dist-info", ".egg-info", ".egg-link")
#: test file names, for runs of the whole suite (no test ids given)
TEST_FILE_PATTERNS = ("test_*.py", "*_test.py", "*.test.[jt]s", "*.spec.[jt]s")


def is_infrastructure(path: str) -> bool:
    """Whether the repository path ``path`` configures or extends the test run."""
    parts = PurePosixPath(path).parts
    name = parts[-1] if parts else ""
    if name in INFRASTRUCTURE_NAMES:
        return True
    if any(fnmatch.fnmatch(name, pattern) for pattern in INFRASTRUCTURE_PATTERNS):
        return True
    return any(part.endswith(METADATA_SUFFIXES) for part in parts)


def test_files(tests: Iterable[str]) -> set[str]:
    """The files of test ids (``file::name``) or test file paths."""
    return {test.split("::", 1)[0] for test in tests}


def refused_changes(
    changes: Mapping[str, object],
    tests: Collection[str] = (),
    answer_tests: Collection[str] = (),
) -> list[str]:
    """The paths of ``changes`` that touch the test infrastructure or the tests being run
    (every test file when ``tests`` is empty), leaving out ``answer_tests``: the test files
    the scenario's answer is (sorted; empty when the change may run)."""
    protected = test_files(tests)
    refused = []
    for path in changes:
        if path in answer_tests:
            if is_infrastructure(path):
                refused.append(path)
            continue
        name = PurePosixPath(path).name
        runs_it = path in protected or (
            not tests and any(fnmatch.fnmatch(name, p) for p in TEST_FILE_PATTERNS)
        )
        if runs_it or is_infrastructure(path):
            refused.append(path)
    return sorted(refused)


def tampered_reason(paths: Collection[str]) -> str:
    """One line naming what a refused change touched."""
    first = sorted(paths)[0]
    more = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
    return f"the change touches the test infrastructure or the tests run: {first}{more}"
