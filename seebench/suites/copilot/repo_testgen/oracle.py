"""The oracle answer: an existing test of the repository that covers the focal method.

The repository's whole suite is run once with per-test coverage (repo-envs' ``run_tests(...,
coverage=True)``); the map is cached beside the environments, keyed by the environment's
manifest hash. A test *covers* the focal method when it executed one of the method's body
lines (:func:`.placement.body_lines`) and passed in the environment's baseline run. The oracle
is the test module holding the most covering tests (ties: the first by path), placed as a
generated test is: Python, as a new file next to the focal file; JS/TS, appended to the focal
file with its relative ``require``/``import`` paths rebased onto the focal file's folder.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.suites.copilot.repo_testgen.backend import Backend, default_backend, staged_repo
from seebench.suites.copilot.repo_testgen.placement import body_lines
from seebench.suites.copilot.repos.staging import repos_dir, source_tree

RELATIVE_IMPORT = re.compile(
    r"^(?P<indent>[ \t]*)from[ \t]+(?P<dots>\.+)(?P<rest>[\w.]*)[ \t]+import\b", re.M
)
CONFTEST_LOADER = """

# --- added by seebench (oracle): the fixtures of this test's own conftest files ---
def _seebench_conftest_names(relative):
    import importlib.util
    import os

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), relative)
    name = "_seebench_conftest_" + relative.replace("/", "_").replace(".", "_")
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:
        return {}
    return {k: v for k, v in vars(module).items() if not k.startswith(("pytest_", "_"))}


for _seebench_relative in __CONFTESTS__:
    for _seebench_key, _seebench_value in _seebench_conftest_names(_seebench_relative).items():
        globals().setdefault(_seebench_key, _seebench_value)
"""
RELATIVE_SPEC = re.compile(
    r"""(?P<head>\b(?:require|jest\.mock|jest\.requireActual|import)\s*\(\s*|\bfrom\s+|\bimport\s+)"""
    r"""(?P<quote>['"])(?P<spec>\.{1,2}/[^'"\n]*)(?P=quote)"""
)


def coverage_path(env: Any) -> Path:
    return repos_dir() / "repo_testgen" / "coverage" / f"{env.slug}-{env.manifest_sha256[:16]}.json"


def _valid_map(data: Any) -> bool:
    if not isinstance(data, dict):
        return False
    for lines in data.values():
        if not isinstance(lines, dict):
            return False
        for tests in lines.values():
            if not (isinstance(tests, list) and all(isinstance(t, str) for t in tests)):
                return False
    return True


def baseline_coverage(env: Any, backend: Backend) -> dict[str, dict[int, frozenset[str]]] | None:
    """file -> line -> ids of the tests that executed it in a whole-suite run (cached);
    ``None`` when the run gave no coverage."""
    path = coverage_path(env)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if _valid_map(data):
            return {
                f: {int(n): frozenset(t) for n, t in lines.items()} for f, lines in data.items()
            }
    except (OSError, ValueError):
        pass
    run = backend.run_tests(env, coverage=True)
    if run.coverage is None:
        return None
    record = {f: {str(n): sorted(t) for n, t in lines.items()} for f, lines in run.coverage.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    safe_files.atomic_write_text(path, json.dumps(record))
    return run.coverage


def covering_tests(
    coverage: dict[str, dict[int, frozenset[str]]],
    passing: frozenset[str],
    file_path: str,
    first: int,
    last: int,
) -> list[str]:
    """The baseline-passing tests that executed a body line of the focal method (sorted)."""
    lines = coverage.get(file_path) or {}
    found: set[str] = set()
    for line in body_lines(first, last):
        found.update(lines.get(line, ()))
    return sorted(found & passing)


def test_module(test_id: str) -> str:
    """The file part of a test id (``tests/test_x.py::T::t`` -> ``tests/test_x.py``)."""
    return test_id.split("::", 1)[0]


def rebase_relative(text: str, from_file: str, to_file: str) -> str:
    """``text`` (a JS/TS module at ``from_file``) with its relative module specifiers
    rewritten to name the same files from ``to_file``'s folder."""
    source, target = posixpath.dirname(from_file), posixpath.dirname(to_file)

    def rebase(match: re.Match[str]) -> str:
        resolved = posixpath.normpath(posixpath.join(source, match["spec"]))
        moved = posixpath.relpath(resolved, target or ".")
        if not moved.startswith("."):
            moved = f"./{moved}"
        if match["spec"].endswith("/") and not moved.endswith("/"):
            moved += "/"
        return f"{match['head']}{match['quote']}{moved}{match['quote']}"

    return RELATIVE_SPEC.sub(rebase, text)


def choose_module(
    tests: list[str], focal_file: str, failing: frozenset[str] = frozenset()
) -> str | None:
    """The test module holding the most of ``tests``, preferring modules none of whose tests
    failed in the baseline run (ties: first by path); never the focal file itself."""
    counts = Counter(test_module(t) for t in tests if test_module(t) != focal_file)
    if not counts:
        return None
    broken = {test_module(t) for t in failing}
    return min(counts, key=lambda name: (name in broken, -counts[name], name))


def _package(path: str, tree: Path) -> list[str]:
    """The package of the Python file ``path`` (its folders upward holding ``__init__.py``)."""
    folders = path.split("/")[:-1]
    start = len(folders)
    while start > 0 and (tree.joinpath(*folders[:start]) / "__init__.py").is_file():
        start -= 1
    return folders[start:]


def portable_python_test(text: str, module: str, focal_file: str, tree: Path) -> str:
    """The test module at ``module`` made to work from the focal file's folder: relative
    imports made absolute (from the module's package), and the fixtures of the conftest files
    above it that are not above the focal file loaded into it by path."""
    package = _package(module, tree)

    def absolute(match: re.Match[str]) -> str:
        up = len(match["dots"]) - 1
        if up > len(package) or (not package):
            return match[0]
        base = package[: len(package) - up]
        name = ".".join([*base, match["rest"]] if match["rest"] else base)
        return f"{match['indent']}from {name} import" if name else match[0]

    text = RELATIVE_IMPORT.sub(absolute, text)
    focal_dirs = {"/".join(focal_file.split("/")[:n]) for n in range(len(focal_file.split("/")))}
    test_parts = module.split("/")[:-1]
    conftests = []
    for n in range(len(test_parts), -1, -1):
        folder = "/".join(test_parts[:n])
        if folder in focal_dirs or not (tree / folder / "conftest.py").is_file():
            continue
        conftests.append(
            posixpath.relpath(
                f"{folder}/conftest.py" if folder else "conftest.py",
                posixpath.dirname(focal_file) or ".",
            )
        )
    if conftests:
        text = text.rstrip("\n") + "\n" + CONFTEST_LOADER.replace("__CONFTESTS__", repr(conftests))
    return text


def oracle_test(target: dict[str, Any], backend: Backend | None = None) -> str | None:
    """The oracle answer for one case (see the module docstring): ``""`` when its repository
    is not ready here (the scorer excludes the item), ``None`` when no passing test covers the
    focal method."""
    repo, _ = staged_repo(target)
    if repo is None:
        return ""
    backend = backend or default_backend()
    env = backend.ensure_env(repo, build=False)
    if env.status != "ready":
        return ""
    coverage = baseline_coverage(env, backend)
    if coverage is None:
        return None
    tests = covering_tests(
        coverage, env.passing, target["file_path"], target["first_line"], target["last_line"]
    )
    module = choose_module(tests, target["file_path"], env.failing)
    if module is None:
        return None
    try:
        text = (source_tree(repo) / module).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if target["language"] == "python":
        return portable_python_test(text, module, target["file_path"], source_tree(repo))
    return rebase_relative(text, module, target["file_path"])
