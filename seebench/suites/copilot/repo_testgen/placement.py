"""Where a generated test goes in the repository, and how the focal call is traced.

- Python: the test is a new pytest file in the focal file's folder
  (``<folder>/test_seebench_<method>.py``); the validity check is a file with one trivial test
  in the same folder. The focal call is traced by a profiler hook added to the folder's
  ``conftest.py`` (appended to the repository's own, or a new file): ``sys.setprofile`` (and
  ``threading.setprofile``) notes a call of the focal method (its name, a code object of the
  focal file whose first line lies in the case's range, decorators allowed for) made while a
  *function* of the generated test file is on the stack; the verdict is written, as one
  marked line, to the process's stderr at exit.
- JavaScript / TypeScript: the test is appended to the focal file, as the paper does, and the
  file is run with the repository's runner (jest or mocha). The focal method counts as invoked
  when one of its body's lines (after its first line; the first line itself for a one-line
  method) is covered by a test of the focal file (the run's per-test coverage).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import PurePosixPath

TRACE_MARK = "@@seebench-repo-test-trace@@ "
#: lines above the case's first line where a decorator may start the code object
DECORATOR_SLACK = 10

TRIVIAL_PYTHON = "def test_seebench_trivial():\n    assert True\n"
TRIVIAL_JS = "\n\nit('seebench trivial test', function () {});\n"

TRACE_HOOK = r"""

# --- added by seebench (copilot repository test): trace calls of the focal method ---
import atexit as _seebench_atexit
import json as _seebench_json
import os as _seebench_os
import sys as _seebench_sys
import threading as _seebench_threading

_SEEBENCH_FOCAL = _seebench_json.loads(__FOCAL__)
_seebench_seen = {"invoked": False, "calls": 0}


def _seebench_is(filename, suffix):
    return filename.replace("\\", "/").endswith("/" + suffix) or filename == suffix


def _seebench_profile(frame, event, arg):
    try:
        _seebench_check(frame, event)
    except Exception:  # at interpreter shutdown module globals may already be gone
        pass


def _seebench_check(frame, event):
    if event != "call" or _seebench_seen["invoked"]:
        return
    code = frame.f_code
    if code.co_name != _SEEBENCH_FOCAL["method"]:
        return
    if not (_SEEBENCH_FOCAL["first"] <= code.co_firstlineno <= _SEEBENCH_FOCAL["last"]):
        return
    if not _seebench_is(code.co_filename, _SEEBENCH_FOCAL["file"]):
        return
    _seebench_seen["calls"] += 1
    caller = frame.f_back
    while caller is not None:
        if caller.f_code.co_name != "<module>" and _seebench_is(
            caller.f_code.co_filename, _SEEBENCH_FOCAL["test"]
        ):
            _seebench_seen["invoked"] = True
            return
        caller = caller.f_back


def _seebench_report():
    _seebench_sys.setprofile(None)
    _seebench_threading.setprofile(None)
    line = __MARK__ + _seebench_json.dumps(_seebench_seen) + "\n"
    try:
        _seebench_os.write(2, line.encode("utf-8"))
    except OSError:
        pass


if not _seebench_sys.getprofile():
    _seebench_sys.setprofile(_seebench_profile)
    _seebench_threading.setprofile(_seebench_profile)
    _seebench_atexit.register(_seebench_report)
"""


@dataclass(frozen=True)
class Placement:
    """The repository changes of one run and the test file whose tests are judged."""

    changes: dict[str, str]
    test_file: str  #: repository-relative path of the file holding the judged tests
    traced: bool = False  #: Python: the run's output carries the trace report
    #: the paths of ``changes`` seebench itself wrote (the trace hook's conftest), exempt from
    #: the test-infrastructure check that the answer's file is held to
    trusted: tuple[str, ...] = ()

    def answer_changes(self) -> dict[str, str]:
        """The changes that come from the answer (checked before the run)."""
        return {path: text for path, text in self.changes.items() if path not in self.trusted}

    def trusted_changes(self) -> dict[str, str]:
        """seebench's own changes (not checked)."""
        return {path: self.changes[path] for path in self.trusted}


def _folder(path: str) -> PurePosixPath:
    return PurePosixPath(path).parent


def _join(folder: PurePosixPath, name: str) -> str:
    return str(folder / name) if str(folder) != "." else name


def python_test_path(file_path: str, method: str) -> str:
    """``<focal folder>/test_seebench_<method>.py``."""
    return _join(_folder(file_path), f"test_seebench_{method.lower()}.py")


def python_trivial_path(file_path: str) -> str:
    return _join(_folder(file_path), "test_seebench_trivial.py")


def conftest_path(file_path: str) -> str:
    return _join(_folder(file_path), "conftest.py")


def trace_hook(file_path: str, method: str, first: int, last: int, test_file: str) -> str:
    """The profiler hook's source for one focal method (see the module docstring)."""
    focal = {
        "file": file_path,
        "method": method,
        "first": max(1, first - DECORATOR_SLACK),
        "last": last,
        "test": test_file,
    }
    return TRACE_HOOK.replace("__FOCAL__", repr(json.dumps(focal))).replace(
        "__MARK__", repr(TRACE_MARK)
    )


def read_trace(output: str) -> bool | None:
    """Whether a trace report in a run's output (one per Python process) says the focal method
    was invoked from the generated tests; ``None`` when there is no well-formed report."""
    found: bool | None = None
    for line in output.splitlines():
        at = line.find(TRACE_MARK)
        if at < 0:
            continue
        try:
            data = json.loads(line[at + len(TRACE_MARK) :])
        except ValueError:
            continue
        value = data.get("invoked") if isinstance(data, dict) else None
        if isinstance(value, bool):
            found = bool(found) or value
    return found


def python_placement(
    target: dict, answer: str, focal_conftest: str | None, *, trivial: bool = False
) -> Placement:
    """The changes for a Python run: the test file (or the trivial one) and, for a generated
    test, the trace hook appended to the focal folder's conftest (``focal_conftest``: its
    current text, ``None`` when there is none)."""
    path = target["file_path"]
    if trivial:
        test_file = python_trivial_path(path)
        return Placement({test_file: TRIVIAL_PYTHON}, test_file)
    test_file = python_test_path(path, target["method"])
    hook = trace_hook(path, target["method"], target["first_line"], target["last_line"], test_file)
    conftest = (focal_conftest or "") + hook
    hook_file = conftest_path(path)
    changes = {test_file: answer, hook_file: conftest}
    return Placement(changes, test_file, traced=True, trusted=(hook_file,))


#: a jest environment pragma in the leading block comment of a test (``@jest-environment jsdom``)
JEST_ENVIRONMENT = re.compile(r"\A\s*/\*\*?(?:(?!\*/).)*?@jest-environment\s+([^\s*]+)", re.S)


def jest_environment(text: str) -> str | None:
    """The jest environment named by ``text``'s leading docblock (``@jest-environment X``)."""
    match = JEST_ENVIRONMENT.match(text)
    return match.group(1) if match else None


def js_placement(target: dict, answer: str, focal_text: str, *, trivial: bool = False) -> Placement:
    """The changes for a JS/TS run: the focal file with the test (or a trivial one) appended.

    jest reads a file's test environment from the docblock at its very top, so an answer
    that opens with ``/** @jest-environment X */`` (a test needing ``jsdom``) gets that pragma
    put in front of the focal file's first line (same line: the focal lines do not move)."""
    path = target["file_path"]
    text = focal_text if focal_text.endswith("\n") else focal_text + "\n"
    added = TRIVIAL_JS if trivial else f"\n\n{answer.strip()}\n"
    environment = None if trivial else jest_environment(answer)
    if environment:
        text = f"/** @jest-environment {environment} */ {text}"
    return Placement({path: text + added}, path)


def body_lines(first: int, last: int) -> range:
    """The focal method's lines whose coverage means it ran (its body after the first line)."""
    return range(first + 1, last + 1) if last > first else range(first, first + 1)


def covered_by(
    coverage: dict | None, file_path: str, first: int, last: int, test_file: str
) -> bool | None:
    """Whether a test of ``test_file`` executed a body line of the focal method, from a run's
    per-test coverage (file -> line -> test ids); ``None`` when the run has no coverage."""
    if coverage is None:
        return None
    lines = coverage.get(file_path) or {}
    prefix = f"{test_file}::"
    for line in body_lines(first, last):
        if any(test.startswith(prefix) for test in lines.get(line, ())):
            return True
    return False
