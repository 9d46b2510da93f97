"""pytest plugin loaded (``-p seebench_pytest_plugin``) into a repository's own test run.

It records one outcome per test node id (``passed``, ``failed``, ``error``, ``skipped``) and
a collection error as ``error`` of the module's node id, appending each as a JSON line
``[node id, outcome]`` to the file named by ``SEEBENCH_OUTCOMES`` as soon as it is known
(the last line of an id wins), so a run stopped at its time limit keeps what finished. The
file is opened, and the functions that write it bound, when the plugin loads: a test that
replaces ``os.environ``, ``open`` or ``json.dumps`` (thefuck's ``os_environ`` fixture sets
``os.environ`` to a dict without the variable) cannot lose the outcomes recorded after
it. Under ``coverage run`` it switches coverage.py's dynamic
context to the running test's node id, so each covered line knows the tests that ran it.
Standard library, pytest and coverage only: it runs with the repository's versions.
"""

import json
import os

import pytest

_outcomes = {}
_PATH = os.environ.get("SEEBENCH_OUTCOMES")
_FD = os.open(_PATH, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) if _PATH else None
_write = os.write
_dumps = json.dumps


def _set(nodeid, outcome):
    if _outcomes.get(nodeid) == outcome:
        return
    _outcomes[nodeid] = outcome
    if _FD is not None:
        _write(_FD, (_dumps([nodeid, outcome]) + "\n").encode("utf-8"))


def _coverage():
    try:
        import coverage
    except ImportError:
        return None
    current = getattr(coverage.Coverage, "current", None)
    return current() if current else None


def pytest_runtest_logreport(report):
    nodeid = report.nodeid
    if report.when == "call":
        if _outcomes.get(nodeid) != "error":
            _set(nodeid, "skipped" if report.skipped else report.outcome)
    elif report.failed:
        _set(nodeid, "error")
    elif report.skipped and report.when == "setup":
        _set(nodeid, "skipped")


def pytest_collectreport(report):
    if report.failed:
        _set(report.nodeid or "<collection>", "error")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cov = _coverage()
    if cov is not None:
        cov.switch_context(item.nodeid)
    yield
    if cov is not None:
        cov.switch_context("")
