"""Run a repository's pytest suite in the sandbox and print one JSON report.

Usage (by seebench, in the run directory): ``python .seebench/pytest_driver.py CONFIG_JSON``
with ``{"args": [...], "coverage": bool, "pythonpath": [folders of the tree]}``. pytest runs in a child process (its output goes
to a file, of which the tail is reported); the report, printed after a marker line, holds
the exit status, the per-test outcomes of the plugin and, with coverage, the map of
repository file -> line -> indices into the list of test ids. Standard library only, plus
coverage.py's data API when coverage is asked for.
"""

import json
import os
import subprocess
import sys

MARKER = "\n@@SEEBENCH-REPORT@@\n"
OUTPUT = "/tmp/seebench-pytest.out"
OUTCOMES = "/tmp/seebench-outcomes.json"
DATA_FILE = "/tmp/seebench.coverage"


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


def main():
    config = json.loads(sys.argv[1])
    run_dir = os.getcwd()
    command = [sys.executable]
    if config.get("coverage"):
        command += ["-m", "coverage", "run", "--rcfile=.seebench/coveragerc"]
        command += ["--data-file=" + DATA_FILE]
    command += ["-m", "pytest", "-p", "seebench_pytest_plugin", "-p", "no:cacheprovider"]
    command += ["--continue-on-collection-errors", "-q", "--color=no", *config["args"]]
    paths = [os.path.join(run_dir, entry) for entry in config.get("pythonpath", [""])]
    paths.append(os.path.join(run_dir, ".seebench"))
    env = dict(os.environ, SEEBENCH_OUTCOMES=OUTCOMES, PYTHONPATH=os.pathsep.join(paths))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    timed_out = False
    with open(OUTPUT, "wb") as handle:
        # stopped a little before the sandbox's wall limit, so a report still comes back
        child = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, env=env)
        try:
            returncode = child.wait(timeout=config.get("timeout_s"))
        except subprocess.TimeoutExpired:
            child.kill()
            returncode = child.wait()
            timed_out = True
            handle.write(b"\nseebench: the test run was stopped after %d s\n" % config["timeout_s"])
    with open(OUTPUT, "rb") as handle:
        handle.seek(0, os.SEEK_END)
        handle.seek(max(0, handle.tell() - 6000))
        tail = handle.read().decode("utf-8", "replace")
    report = {"exit": returncode, "tail": tail, "outcomes": {}, "timed_out": timed_out}
    try:
        with open(OUTCOMES, encoding="utf-8") as handle:
            report["outcomes"] = json.load(handle)
    except (OSError, ValueError) as error:
        report["outcomes_error"] = str(error)
    if config.get("coverage"):
        try:
            report["coverage"] = coverage_map(run_dir)
        except Exception as error:  # no data (nothing ran) or an old coverage.py
            report["coverage_error"] = f"{type(error).__name__}: {error}"
    sys.stdout.write(MARKER + json.dumps(report))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
