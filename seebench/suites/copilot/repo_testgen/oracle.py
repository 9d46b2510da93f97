"""The oracle answer: an existing test of the repository that covers the focal method.

The repository's whole suite is run once with per-test coverage (repo-envs' ``run_tests(...,
coverage=True)``); the map is cached beside the environments, keyed by the environment's
manifest hash. A test *covers* the focal method when it executed one of the method's body
lines (:func:`.placement.body_lines`) and passed in the environment's baseline run. The oracle
is the test module holding the most covering tests (preferring modules without a baseline
failure; ties: the first by path), and the answer runs those tests *where they are*, from
where a generated test goes, so the ceiling is not lowered by moving them: Python, a new test
file next to the focal file that imports the module as pytest does and wraps its covering
tests (:mod:`.oracle_shim`); JS/TS, a line appended to the focal file that loads the test
module, whose tests then register in the focal file's suite.
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
from seebench.suites.copilot.repo_testgen.oracle_shim import python_oracle
from seebench.suites.copilot.repo_testgen.placement import body_lines, jest_environment
from seebench.suites.copilot.repos.envs import BASELINE_TIMEOUT_S
from seebench.suites.copilot.repos.staging import repos_dir, source_tree


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
        data = json.loads(safe_files.read_text(path))  # a cache: damaged is recomputed
        if _valid_map(data):
            return {
                f: {int(n): frozenset(t) for n, t in lines.items()} for f, lines in data.items()
            }
    except (OSError, ValueError, RecursionError):
        pass
    run = backend.run_tests(env, coverage=True, timeout_s=BASELINE_TIMEOUT_S)
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
    tree = source_tree(repo)
    if not (tree / module).is_file():
        return None
    if target["language"] == "python":
        return python_oracle(module, tests, target["file_path"], tree)
    try:
        head = safe_files.read_head(tree / module, 16_000).decode("utf-8", "replace")[:4000]
    except OSError:
        head = ""
    prefix = f"{module}::"
    skip = sorted(t[len(prefix) :] for t in env.failing if t.startswith(prefix))
    return js_oracle(module, target["file_path"], target["language"], jest_environment(head), skip)


#: appended after the JS/TS oracle's import: jest-circus's registered tests whose titles failed
#: at baseline are switched to ``skip`` (plain JS that is also valid strict TypeScript; a no-op
#: without jest-circus)
JEST_SKIP = """;(() => {
  const skip = new Set(__TITLES__);
  const sym = Object.getOwnPropertySymbols(globalThis).find(
    (s) => String(s) === 'Symbol(JEST_STATE_SYMBOL)',
  );
  const state = sym ? Reflect.get(globalThis, sym) : undefined;
  const stack = state ? [{ block: state.rootDescribeBlock, path: '' }] : [];
  while (stack.length) {
    const item = stack.pop();
    if (!item) break;
    for (const child of (item.block.children || []).concat(item.block.tests || [])) {
      const path = item.path ? item.path + ' > ' + child.name : child.name;
      if (child.type === 'describeBlock') stack.push({ block: child, path: path });
      else if (skip.has(path)) child.mode = 'skip';
    }
  }
})();
"""


def js_oracle(
    module: str,
    focal_file: str,
    language: str,
    environment: str | None = None,
    skip: list[str] | None = None,
) -> str:
    """The JS/TS oracle: the covering test module loaded, where it is, from the end of the
    focal file (its tests register in the focal file's suite: jest and mocha collect the
    ``describe``/``it`` calls made while a test file loads). TypeScript uses a side-effect
    ``import`` (valid without Node's type declarations), JavaScript ``require``. A jest
    ``environment`` the module declares in its docblock opens the answer, so the placement
    gives the focal file the same one. The module's tests that failed at baseline (``skip``:
    their titles, ``A > B > test``) are switched off under jest-circus (:data:`JEST_SKIP`), so
    the answer holds the module's passing tests only."""
    spec = posixpath.relpath(module, posixpath.dirname(focal_file) or ".")
    if not spec.startswith("."):
        spec = f"./{spec}"
    note = "// seebench oracle: the repository's own tests that cover the focal method"
    if environment:
        note = f"/** @jest-environment {environment} */\n{note}"
    if language == "typescript":
        spec = re.sub(r"\.(tsx?|mts|cts)$", "", spec)
        loader = f"import {json.dumps(spec)};\n"
    else:
        loader = f"require({json.dumps(spec)});\n"
    tail = JEST_SKIP.replace("__TITLES__", json.dumps(skip)) if skip else ""
    return f"{note}\n{loader}{tail}"
