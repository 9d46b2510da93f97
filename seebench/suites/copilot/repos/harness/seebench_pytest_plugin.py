"""pytest plugin loaded (``-p seebench_pytest_plugin``) into a repository's own test run.

It records one outcome per test node id (``passed``, ``failed``, ``error``, ``skipped``) and
a collection error as ``error`` of the module's node id, writing them as JSON to the file
named by ``SEEBENCH_OUTCOMES``; under ``coverage run`` it switches coverage.py's dynamic
context to the running test's node id, so each covered line knows the tests that ran it.
Standard library, pytest and coverage only: it runs with the repository's versions.
"""

import json
import os

import pytest

_outcomes = {}


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
            _outcomes[nodeid] = "skipped" if report.skipped else report.outcome
    elif report.failed:
        _outcomes[nodeid] = "error"
    elif report.skipped and report.when == "setup":
        _outcomes[nodeid] = "skipped"


def pytest_collectreport(report):
    if report.failed:
        _outcomes[report.nodeid or "<collection>"] = "error"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cov = _coverage()
    if cov is not None:
        cov.switch_context(item.nodeid)
    yield
    if cov is not None:
        cov.switch_context("")


def pytest_sessionfinish(session, exitstatus):
    path = os.environ.get("SEEBENCH_OUTCOMES")
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(_outcomes, handle)
