"""Run a repository's pytest suite in the sandbox and print one JSON report.

Usage (by seebench, in the run directory): ``python .seebench/pytest_driver.py CONFIG_JSON``
with ``{"args": [...], "coverage": bool, "pythonpath": [folders of the tree], "changed":
[paths the change wrote]}``. pytest runs in a child process (its output goes to a file, of
which the tail is reported); the outcomes come back through a pipe this driver opened and
alone reads (``SEEBENCH_OUTCOMES_FD``, see the plugin), never through a file the tests
could rewrite. The report, printed after a marker line, holds the child's real exit status,
the per-test outcomes, whether pytest's own end of session arrived (``ended``, with its exit
status ``session_exit``), the plugins whose code came from the change or from a file made
during the run (``foreign``) and, with coverage, the map of repository file -> line ->
indices into the list of test ids. Standard library only, plus coverage.py's data API when
coverage is asked for.
"""

import contextlib
import json
import os
import subprocess
import sys
import threading

MARKER = "\n@@SEEBENCH-REPORT@@\n"
OUTPUT = "/tmp/seebench-pytest.out"
DATA_FILE = "/tmp/seebench.coverage"
BAD = ("failed", "error")


def coverage_map(run_dir):
    import coverage

    data = coverage.CoverageData(basename=DATA_FILE)
    data.read()
    tests, index, files = [], {}, {}
    for measured in sorted(data.measured_files()):
        relative = os.path.relpath(measured, run_dir)
        if relative.startswith("..") or relative.startswith(".seebench"):
            continue
        lines = {}
        for line, contexts in (data.contexts_by_lineno(measured) or {}).items():
            ids = []
            for context in contexts:
                if not context:
                    continue
                if context not in index:
                    index[context] = len(tests)
                    tests.append(context)
                ids.append(index[context])
            if ids:
                lines[str(line)] = sorted(set(ids))
        if lines:
            files[relative.replace(os.sep, "/")] = lines
    return {"tests": tests, "files": files}


def tree_files(run_dir):
    """The files of the run directory before the tests run (relative paths)."""
    found = set()
    for folder, dirs, files in os.walk(run_dir):
        dirs[:] = [d for d in dirs if not (folder == run_dir and d == ".seebench")]
        for name in files:
            found.add(os.path.relpath(os.path.join(folder, name), run_dir).replace(os.sep, "/"))
    return found


def foreign(origins, run_dir, before, changed):
    """The plugin origins the run may not trust: no file, a file the change wrote, a file
    made during the run, or one outside the tree and the interpreter's environment."""
    trusted = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    bad = []
    for origin in origins:
        if origin.startswith("<"):
            bad.append(origin)
            continue
        relative = os.path.relpath(origin, run_dir).replace(os.sep, "/")
        if not relative.startswith("../"):
            if not relative.startswith(".seebench/") and (
                relative not in before or relative in changed
            ):
                bad.append(relative)
        elif not any(origin.startswith(root + os.sep) for root in trusted):
            bad.append(origin)
    return bad


def read_pipe(fd, chunks):
    with os.fdopen(fd, "rb") as pipe:
        for chunk in iter(lambda: pipe.read(65536), b""):
            chunks.append(chunk)


def parse_channel(data, report):
    """Fold the plugin's lines into ``report``: outcomes (a failure once sent stays), the
    end marker (exactly one, and nothing after it)."""
    ends = []
    for line in data.decode("utf-8", "replace").splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue  # a line cut short when the run was stopped
        if isinstance(value, dict) and "end" in value:
            ends.append(value)
        elif isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
            if ends:
                report["late_outcomes"] = report.get("late_outcomes", 0) + 1
            test, outcome = value
            if report["outcomes"].get(test) not in BAD:
                report["outcomes"][test] = outcome
    report["ended"] = len(ends) == 1 and not report.get("late_outcomes")
    if ends:
        report["session_exit"] = ends[-1].get("end")
        report["plugins"] = [str(p) for p in ends[-1].get("plugins") or []]
        report["patched"] = [str(p) for p in ends[-1].get("patched") or []]
    if len(ends) > 1:
        report["end_markers"] = len(ends)


def run_child(command, env, timeout_s):
    """Run pytest with the write end of the outcomes pipe; (exit status, timed out, data)."""
    read_fd, write_fd = os.pipe()
    env = dict(env, SEEBENCH_OUTCOMES_FD=str(write_fd))
    chunks = []
    reader = threading.Thread(target=read_pipe, args=(read_fd, chunks), daemon=True)
    timed_out = False
    with open(OUTPUT, "wb") as handle:
        # stopped a little before the sandbox's wall limit, so a report still comes back
        child = subprocess.Popen(
            command, stdout=handle, stderr=subprocess.STDOUT, env=env, pass_fds=(write_fd,)
        )
        os.close(write_fd)
        reader.start()
        try:
            returncode = child.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            child.kill()
            returncode = child.wait()
            timed_out = True
            handle.write(b"\nseebench: the test run was stopped after %d s\n" % timeout_s)
    reader.join(timeout=10)  # a leftover process holding the pipe cannot stall the report
    return returncode, timed_out, b"".join(chunks)


def output_tail():
    with open(OUTPUT, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        handle.seek(max(0, handle.tell() - 6000))
        return handle.read().decode("utf-8", "replace")


def take_nonce():
    """The run's nonce, read from stdin, which is then closed and its file removed, so that
    nothing the tests start can read it (the report carries it: a report printed by anyone
    else lacks it)."""
    nonce = sys.stdin.buffer.read().decode("ascii", "replace").strip()
    try:
        path = os.readlink("/proc/self/fd/0")
    except OSError:
        path = ""
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    if path.startswith("/"):
        with contextlib.suppress(OSError):
            os.unlink(path)
    return nonce


def undumpable():
    """Make this process undumpable: the tests (same uid) can then neither ptrace it nor open
    its ``/proc/PID/mem``, ``fd`` or ``environ`` (the nonce, its stdout); pytest, started by
    exec, is dumpable again."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
    except (OSError, AttributeError):
        pass  # no libc prctl: the nonce still tells a forged report apart where it is unread


def main():
    config = json.loads(sys.argv[1])
    nonce = take_nonce()
    undumpable()
    run_dir = os.getcwd()
    before = tree_files(run_dir)
    command = [sys.executable]
    if config.get("coverage"):
        command += ["-m", "coverage", "run", "--rcfile=.seebench/coveragerc"]
        command += ["--data-file=" + DATA_FILE]
    command += ["-m", "pytest", "-p", "seebench_pytest_plugin", "-p", "no:cacheprovider"]
    command += ["--continue-on-collection-errors", "-q", "--color=no", *config["args"]]
    paths = [os.path.join(run_dir, entry) for entry in config.get("pythonpath", [""])]
    paths.append(os.path.join(run_dir, ".seebench"))
    env = {k: v for k, v in os.environ.items() if k != "SEEBENCH_OUTCOMES"}
    env.update(PYTHONPATH=os.pathsep.join(paths), PYTHONDONTWRITEBYTECODE="1")
    returncode, timed_out, data = run_child(command, env, config.get("timeout_s"))
    report = {"exit": returncode, "tail": output_tail(), "outcomes": {}, "timed_out": timed_out}
    report["nonce"] = nonce
    parse_channel(data, report)
    changed = set(config.get("changed", []))
    report["foreign"] = foreign(report.get("plugins", []), run_dir, before, changed)
    if not changed:  # nothing untrusted ran: the repository's own tests may patch pytest
        report["patched"] = []
    if config.get("coverage"):
        try:
            report["coverage"] = coverage_map(run_dir)
        except Exception as error:  # no data (nothing ran) or an old coverage.py
            report["coverage_error"] = f"{type(error).__name__}: {error}"
    sys.stdout.write(MARKER + json.dumps(report))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
