"""The program that runs a generated test file in the sandbox, and how its report is read.

The work directory holds one pytest file per variant of the focal module, each being that
variant followed by a test file (the paper appends the test to the focal method's file):

- ``test_trivial.py``: the solution + a test that only asserts true (the validity check, §3.4);
- ``test_original.py``: the solution + the generated test (pass rate; calls to the focal
  definition are traced here with ``sys.setprofile``, during test execution only);
- ``test_mutant_NN.py``: a mutant + the generated test (killed when any of its tests fails).

One in-process ``pytest.main`` runs them all (plugin autoloading off); each test's call and
each module's import run under a CPU-time alarm (``ITIMER_PROF``), so a mutant that loops is killed, not hung.
The driver prints one report line, ``REPORT_MARK`` + JSON, after pytest's own output (which it
keeps to a bounded tail inside the report).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

REPORT_MARK = "@@seebench-testgen-report@@ "
#: changes when the driver judges differently (part of the scorer's identity)
DRIVER_VERSION = 3
TRIVIAL_TEST = "\n\ndef test_seebench_trivial():\n    assert True\n"
TRIVIAL_FILE = "test_trivial.py"
ORIGINAL_FILE = "test_original.py"

DRIVER = r"""
import contextlib, io, json, os, signal, sys, time

os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
CONFIG = json.loads(__CONFIG__)
import pytest


class SeebenchTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise SeebenchTimeout("time limit of one test or module import reached")


signal.signal(signal.SIGPROF, _alarm)


class Recorder:
    def __init__(self):
        self.files = {}
        self.invoked = False
        self.slowest = 0.0  # CPU seconds of the slowest test of the original file
        self.entry = CONFIG["entry_point"]

    def file(self, nodeid):
        name = nodeid.split("::")[0]
        return self.files.setdefault(
            name, {"passed": 0, "failed": 0, "errors": 0, "skipped": 0, "collect_error": False}
        )

    def profile(self, frame, event, arg):
        if event == "call" and not self.invoked:
            code = frame.f_code
            if os.path.basename(code.co_filename) == CONFIG["original"] and (
                code.co_name == self.entry or code.co_qualname.startswith(self.entry + ".")
            ):
                self.invoked = True

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        name = item.nodeid.split("::")[0]
        traced = name == CONFIG["original"]
        limit = CONFIG["test_timeout_s"]
        if name.startswith("test_mutant_"):  # ten times the slowest original test, or less
            limit = min(limit, max(CONFIG["floor_s"], 10 * self.slowest))
        started = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, limit)
        if traced:
            sys.setprofile(self.profile)
        try:
            return (yield)
        finally:
            if traced:
                sys.setprofile(None)
            signal.setitimer(signal.ITIMER_PROF, 0)
            if name in (CONFIG["original"], CONFIG["trivial"]):
                self.slowest = max(self.slowest, time.process_time() - started)

    @pytest.hookimpl(wrapper=True)
    def pytest_make_collect_report(self, collector):
        signal.setitimer(signal.ITIMER_PROF, CONFIG["import_timeout_s"])
        try:
            return (yield)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)

    def pytest_collectreport(self, report):
        if report.failed and report.nodeid:
            self.file(report.nodeid)["collect_error"] = True

    def pytest_runtest_logreport(self, report):
        entry = self.file(report.nodeid)
        if report.failed:
            entry["errors" if report.when != "call" else "failed"] += 1
        elif report.skipped and report.when in ("setup", "call"):
            entry["skipped"] += 1
        elif report.passed and report.when == "call":
            entry["passed"] += 1


recorder = Recorder()
output = io.StringIO()
report_fd = os.dup(1)  # stdout itself goes nowhere: output a test prints cannot push the
null_fd = os.open(os.devnull, os.O_WRONLY)  # report out of the sandbox's kept bytes
os.dup2(null_fd, 1)
args = ["-q", "-p", "no:cacheprovider", "--import-mode=importlib", "--rootdir=.", "--assert=plain",
        "-o", "addopts=", "-o", "python_files=test_*.py", *CONFIG["files"]]
with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
    status = pytest.main(args, plugins=[recorder])
text = output.getvalue()
report = {"status": int(status), "files": recorder.files, "invoked": recorder.invoked,
          "output": text[-CONFIG["output_chars"]:]}
sys.stdout.flush()
data = ("\n" + __MARK__ + json.dumps(report) + "\n").encode("utf-8")
while data:
    data = data[os.write(report_fd, data):]
"""


FILTER = r"""
import json, os, signal, sys

CONFIG = json.loads(__CONFIG__)


class SeebenchTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise SeebenchTimeout("time limit reached")


signal.signal(signal.SIGPROF, _alarm)
report_fd = os.dup(1)
null_fd = os.open(os.devnull, os.O_WRONLY)
os.dup2(null_fd, 1)
import time

verdicts = []
timeout = CONFIG["timeout_s"]
for number, source in enumerate(CONFIG["candidates"]):
    program = CONFIG["prelude"] + source + "\n\n" + CONFIG["tests"]
    started = time.process_time()
    signal.setitimer(signal.ITIMER_PROF, timeout)
    try:
        exec(compile(program, "<candidate>", "exec"), {"__name__": "__main__"})
        verdicts.append("passed")
    except BaseException as error:
        verdicts.append(type(error).__name__)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    if number == 0:  # the solution: a mutant may take at most ten times as long
        spent = time.process_time() - started
        timeout = min(CONFIG["timeout_s"], max(CONFIG["floor_s"], 10 * spent))
sys.stdout.flush()
data = ("\n" + __MARK__ + json.dumps(verdicts) + "\n").encode("utf-8")
while data:
    data = data[os.write(report_fd, data):]
"""


def filter_source(
    prelude: str, candidates: list[str], tests: str, timeout_s: float, floor_s: float = 1.0
) -> str:
    """A program that runs the hidden tests on each candidate (the solution first) in a fresh
    namespace under a CPU-time alarm, and reports one verdict per candidate. The solution gets
    ``timeout_s``; a mutant ten times the solution's CPU time (at least ``floor_s``, at most
    ``timeout_s``): a mutant slower than that is noticed (it loops, or nearly)."""
    config = {
        "prelude": prelude,
        "candidates": candidates,
        "tests": tests,
        "timeout_s": timeout_s,
        "floor_s": floor_s,
    }
    return FILTER.replace("__CONFIG__", repr(json.dumps(config))).replace(
        "__MARK__", repr(REPORT_MARK)
    )


def read_verdicts(stdout: str, expected: int) -> list[str] | None:
    """The filter's verdicts (``passed`` or an exception name), or ``None`` when its report is
    missing or malformed."""
    line = next((ln for ln in reversed(stdout.splitlines()) if ln.startswith(REPORT_MARK)), None)
    if line is None:
        return None
    try:
        verdicts = json.loads(line[len(REPORT_MARK) :])
    except ValueError:
        return None
    if not isinstance(verdicts, list) or len(verdicts) != expected:
        return None
    if not all(isinstance(v, str) for v in verdicts):
        return None
    return verdicts


def driver_source(
    entry_point: str,
    files: list[str],
    *,
    test_timeout_s: float = 5.0,
    floor_s: float = 1.0,
    import_timeout_s: float = 20.0,
    output_chars: int = 4000,
) -> str:
    """The driver program for one run over ``files`` (pytest files in the work directory, run
    in that order: the trivial and original files first). A test gets ``test_timeout_s`` CPU
    seconds; on a mutant, ten times the slowest original test (at least ``floor_s``)."""
    config = {
        "entry_point": entry_point,
        "files": files,
        "original": ORIGINAL_FILE,
        "trivial": TRIVIAL_FILE,
        "test_timeout_s": test_timeout_s,
        "floor_s": floor_s,
        "import_timeout_s": import_timeout_s,
        "output_chars": output_chars,
    }
    return DRIVER.replace("__CONFIG__", repr(json.dumps(config))).replace(
        "__MARK__", repr(REPORT_MARK)
    )


@dataclass
class FileOutcome:
    """What pytest reported for one file."""

    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    collect_error: bool = False

    @property
    def clean_pass(self) -> bool:
        """At least one test passed and nothing failed, errored or failed to import."""
        return self.passed > 0 and not (self.failed or self.errors or self.collect_error)

    @property
    def any_failure(self) -> bool:
        return bool(self.failed or self.errors or self.collect_error)


@dataclass
class DriverReport:
    """The driver's report: per-file outcomes, whether the focal definition was called."""

    status: int
    files: dict[str, FileOutcome] = field(default_factory=dict)
    invoked: bool = False
    output: str = ""

    def outcome(self, name: str) -> FileOutcome:
        return self.files.get(name, FileOutcome())


def read_report(stdout: str) -> DriverReport | None:
    """The last report line of the driver's stdout; ``None`` when there is none or it is not
    a well-formed report (nothing in it is trusted unchecked)."""
    line = next((ln for ln in reversed(stdout.splitlines()) if ln.startswith(REPORT_MARK)), None)
    if line is None:
        return None
    try:
        data = json.loads(line[len(REPORT_MARK) :])
        files = {}
        for name, entry in data["files"].items():
            counts = {k: int(entry[k]) for k in ("passed", "failed", "errors", "skipped")}
            if any(v < 0 for v in counts.values()):
                return None
            files[str(name)] = FileOutcome(**counts, collect_error=bool(entry["collect_error"]))
        return DriverReport(int(data["status"]), files, bool(data["invoked"]), str(data["output"]))
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def mutant_file(number: int) -> str:
    return f"test_mutant_{number:02d}.py"


def run_order(files: dict[str, str]) -> list[str]:
    """The files in the order pytest runs them: trivial, original, then the mutants."""
    first = [TRIVIAL_FILE, ORIGINAL_FILE]
    return [name for name in first if name in files] + sorted(set(files) - set(first))


def run_files(prelude: str, solution: str, test: str, mutants: list[str]) -> dict[str, str]:
    """The work directory's files: trivial, original and one per mutant (each a module
    followed by a test file)."""
    files = {
        TRIVIAL_FILE: f"{prelude}{solution}{TRIVIAL_TEST}",
        ORIGINAL_FILE: f"{prelude}{solution}\n\n{test}\n",
    }
    for number, source in enumerate(mutants, 1):
        files[mutant_file(number)] = f"{prelude}{source}\n\n{test}\n"
    return files


def summary(report: DriverReport, mutants: int) -> dict[str, Any]:
    """The facts a score keeps: validity, pass, invocation and kills."""
    original = report.outcome(ORIGINAL_FILE)
    killed = [report.outcome(mutant_file(n)).any_failure for n in range(1, mutants + 1)]
    # a mutant file that was not run (or an answer without tests) kills nothing: its outcome
    # is empty, so ``any_failure`` is false
    return {
        "valid": report.outcome(TRIVIAL_FILE).clean_pass,
        "passed": original.clean_pass,
        "tests_passed": original.passed,
        "tests_failed": original.failed + original.errors,
        "collect_error": original.collect_error,
        "invokes": report.invoked,
        "mutants": mutants,
        "killed": sum(killed),
        "killed_by_mutant": killed,
    }
