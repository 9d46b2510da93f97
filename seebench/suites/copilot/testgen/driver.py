"""The program that runs a generated test file in the sandbox, and how its report is read.

The work directory holds one pytest file per variant of the focal module, each being that
variant followed by a test file (the paper appends the test to the focal method's file):

- ``test_trivial.py``: the solution + a test that only asserts true (the validity check, §3.4);
- ``test_original.py``: the solution + the generated test (pass rate; calls to the focal
  definition are traced here with ``sys.setprofile``, during test execution only);
- ``test_mutant_NN.py``: a mutant + the generated test (killed when any of its tests fails).

The driver never runs a line of the answer: it reads the files, removes them, and runs each
variant in a process of its own (forked from the driver before anything of the answer was
loaded), alone in a fresh folder under one name (``test_focal.py``), with conftest files off
and an ini file of the driver's (plugin autoloading off). Each test's call and each module's
import run under a CPU-time alarm (``ITIMER_PROF``), so a mutant that loops is killed, not
hung. The variant's process sends each outcome over a pipe as it is known, then an end
marker with pytest's status; the driver trusts the outcomes only when exactly one marker
came last and its status is the process's exit status (else the variant failed). So a
test can change neither another variant's outcome (another process, another folder, the
other files gone) nor the report, which only the driver (undumpable) prints: one report
line, ``REPORT_MARK`` + JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

REPORT_MARK = "@@seebench-testgen-report@@ "
#: changes when the driver judges differently (part of the scorer's identity)
DRIVER_VERSION = 4
TRIVIAL_TEST = "\n\ndef test_seebench_trivial():\n    assert True\n"
TRIVIAL_FILE = "test_trivial.py"
ORIGINAL_FILE = "test_original.py"

DRIVER = r"""
import contextlib, ctypes, io, json, os, select, shutil, signal, sys, tempfile, time

os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
CONFIG = json.loads(__CONFIG__)
RUN_NAME = "test_focal.py"  # every variant runs under this one name, alone in a fresh folder
MAX_PIPE = 1 << 20
import pytest


class SeebenchTimeout(Exception):
    pass


def _alarm(signum, frame):
    raise SeebenchTimeout("time limit of one test or module import reached")


class Recorder:
    # in a variant's process: sends each outcome as it is known, over the pipe
    def __init__(self, fd, limit, traced):
        self.fd, self.limit, self.traced = fd, limit, traced
        self.invoked = False
        self.slowest = 0.0  # CPU seconds of the slowest test
        self.entry = CONFIG["entry_point"]

    def send(self, message):
        data = (json.dumps(message) + "\n").encode("utf-8")
        while data:
            data = data[os.write(self.fd, data):]

    def profile(self, frame, event, arg):
        if event == "call" and not self.invoked:
            code = frame.f_code
            if os.path.basename(code.co_filename) == RUN_NAME and (
                code.co_name == self.entry or code.co_qualname.startswith(self.entry + ".")
            ):
                self.invoked = True

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        started = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, self.limit)
        if self.traced:
            sys.setprofile(self.profile)
        try:
            return (yield)
        finally:
            if self.traced:
                sys.setprofile(None)
            signal.setitimer(signal.ITIMER_PROF, 0)
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
            self.send({"outcome": "collect_error"})

    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.send({"outcome": "errors" if report.when != "call" else "failed"})
        elif report.skipped and report.when in ("setup", "call"):
            self.send({"outcome": "skipped"})
        elif report.passed and report.when == "call":
            self.send({"outcome": "passed"})


def run_variant(folder, fd, limit, traced):
    # the variant's process: pytest over its one file; never returns
    status = 70
    try:
        os.setpgid(0, 0)
        for other in range(3, 1024):  # the report's and the token's descriptors stay behind
            if other != fd:
                with contextlib.suppress(OSError):
                    os.close(other)
        sys.pycache_prefix = tempfile.mkdtemp(prefix="pyc-")
        signal.signal(signal.SIGPROF, _alarm)
        recorder = Recorder(fd, limit, traced)
        output = io.StringIO()
        args = ["-q", "-p", "no:cacheprovider", "--noconftest", "--import-mode=importlib",
                "-c", CONFIG["ini"], "--rootdir", folder, "--assert=plain", "-o", "addopts=",
                "-o", "python_files=test_*.py", os.path.join(folder, RUN_NAME)]
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            status = int(pytest.main(args, plugins=[recorder]))
        recorder.send({"end": status, "invoked": recorder.invoked, "slowest": recorder.slowest,
                       "output": output.getvalue()[-CONFIG["output_chars"]:]})
    except BaseException:
        pass
    finally:
        os._exit(status & 0xFF)


def collect(fd, pid):
    # (bytes the variant's process sent, its wait status); a leftover process of the variant
    # that keeps the pipe open is killed with its process group
    chunks, size, status, deadline = [], 0, None, None
    os.set_blocking(fd, False)
    while True:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                chunk = None
            if chunk == b"":
                break
            if chunk and size < MAX_PIPE:
                chunks.append(chunk)
                size += len(chunk)
            continue
        if status is None:
            done, status = os.waitpid(pid, os.WNOHANG)
            status = status if done else None
            if status is not None:
                with contextlib.suppress(OSError):
                    os.killpg(pid, signal.SIGKILL)
                deadline = time.monotonic() + 1.0
        elif time.monotonic() > deadline:
            break
    os.close(fd)
    if status is None:  # the pipe closed first
        status = os.waitpid(pid, 0)[1]
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
    return b"".join(chunks), status


def judge(data, status):
    # one variant's outcome, from what it sent and how it ended: trusted only when exactly one
    # end marker came last and its pytest status is the process's exit status
    entry = {"passed": 0, "failed": 0, "errors": 0, "skipped": 0, "collect_error": False}
    end = None
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            message = None
        if end is not None or not isinstance(message, dict):
            end = False
            break
        if "end" in message:
            end = message
        elif message.get("outcome") == "collect_error":
            entry["collect_error"] = True
        elif message.get("outcome") in ("passed", "failed", "errors", "skipped"):
            entry[message["outcome"]] += 1
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    if not isinstance(end, dict) or not isinstance(end.get("end"), int) or code != end["end"]:
        how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"status {code}"
        entry["errors"] += 1  # a failure: the run did not end as pytest ends
        return entry, {"invoked": False, "slowest": 0.0,
                       "output": f"the test process ended without pytest's report ({how})"}
    slowest = end.get("slowest")
    return entry, {"invoked": end.get("invoked") is True,
                   "slowest": float(slowest) if type(slowest) in (int, float) else 0.0,
                   "output": str(end.get("output", ""))}


def preload(trusted):
    # the libraries the focal file imports (numpy, pandas...), imported once here so that no
    # variant's process pays for them again; read from the trivial file, which holds only the
    # item's own code (the answer is not in it)
    import ast, importlib
    try:
        tree = ast.parse(trusted)
    except (SyntaxError, ValueError):
        return
    for node in tree.body:
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for name in names:
            with contextlib.suppress(BaseException):
                importlib.import_module(name.split(".")[0])


def main():
    with contextlib.suppress(Exception):
        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0: its memory and fds
    sys.dont_write_bytecode = True
    report_fd = os.dup(1)  # stdout itself goes nowhere: output a test prints cannot push the
    null_fd = os.open(os.devnull, os.O_WRONLY)  # report out of the sandbox's kept bytes
    os.dup2(null_fd, 1)
    sources = {}
    for name in CONFIG["files"]:  # read, then removed: no variant sees another
        with open(name, encoding="utf-8") as handle:
            sources[name] = handle.read()
        os.unlink(name)
    preload(sources.get(CONFIG["trivial"], ""))
    root = tempfile.mkdtemp(prefix="seebench-testgen-")
    CONFIG["ini"] = os.path.join(root, "pytest.ini")
    files, invoked, slowest, output = {}, False, 0.0, []
    for name in CONFIG["files"]:
        limit = CONFIG["test_timeout_s"]
        if name.startswith("test_mutant_"):  # ten times the slowest original test, or less
            limit = min(limit, max(CONFIG["floor_s"], 10 * slowest))
        folder = tempfile.mkdtemp(prefix="v-", dir=root)
        with open(CONFIG["ini"], "w", encoding="utf-8") as handle:
            handle.write("[pytest]\n")
        with open(os.path.join(folder, RUN_NAME), "w", encoding="utf-8") as handle:
            handle.write(sources[name])
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_fd)
            run_variant(folder, write_fd, limit, name == CONFIG["original"])
        os.close(write_fd)
        files[name], end = judge(*collect(read_fd, pid))
        shutil.rmtree(folder, ignore_errors=True)
        if name in (CONFIG["original"], CONFIG["trivial"]):
            slowest = max(slowest, end["slowest"])
            output.append(f"== {name}\n{end['output']}")
        if name == CONFIG["original"]:
            invoked = end["invoked"]
    status = 0 if all(not (f["failed"] or f["errors"] or f["collect_error"]) for f in files.values()) else 1
    report = {"status": status, "files": files, "invoked": invoked,
              "output": "\n".join(output)[-CONFIG["output_chars"]:]}
    data = ("\n" + __MARK__ + json.dumps(report) + "\n").encode("utf-8")
    while data:
        data = data[os.write(report_fd, data):]


main()
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
