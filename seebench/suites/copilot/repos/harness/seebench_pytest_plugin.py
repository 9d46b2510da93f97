"""pytest plugin loaded (``-p seebench_pytest_plugin``) into a repository's own test run.

It records one outcome per test node id (``passed``, ``failed``, ``error``, ``skipped``) and
a collection error as ``error`` of the module's node id, and sends each, as soon as it is
known, as a JSON line ``[node id, outcome]`` down the pipe the driver opened
(``SEEBENCH_OUTCOMES_FD``), so a run stopped at its time limit keeps what finished. The pipe
has no file a test could rewrite after the fact: the driver alone reads it. When pytest
unconfigures, the plugin sends the session's end marker: ``{"end": exit status, "plugins":
[origins], "patched": [names]}``: where each registered plugin's code lives (the driver
refuses one from a file the change wrote or created during the run) and which functions or
classes of pytest and pluggy are no longer those of the session's start (a test that
replaced them forged the reports).

The descriptor is moved to a private, non-inheritable number and the variable removed when
the plugin loads (before any conftest or test module is imported), and the functions that
write are bound then: a test that replaces ``os.environ``, ``open`` or ``json.dumps``
(thefuck's ``os_environ`` fixture sets ``os.environ`` to a dict without the variable) cannot
lose the outcomes recorded after it. Under ``coverage run`` it switches coverage.py's dynamic
context to the running test's node id, so each covered line knows the tests that ran it.
Standard library, pytest and coverage only: it runs with the repository's versions.
"""

import contextlib
import json
import os
import sys
import types

import pytest

_outcomes = {}  # type: dict[str, str]
_session = []  # type: list[pytest.Session]
#: pytest's and pluggy's modules whose functions and classes must be the same at the end of
#: the session as at its start (a test that replaces them forges every report)
_WATCHED = (
    "_pytest.runner",
    "_pytest.reports",
    "_pytest.main",
    "_pytest.terminal",
    "_pytest.python",
    "_pytest.nodes",
    "_pytest.outcomes",
    "_pytest.skipping",
    "_pytest.unittest",
    "_pytest.fixtures",
    "pluggy._callers",
    "pluggy._hooks",
    "pluggy._manager",
    "pluggy._result",
)
_CODE = (types.FunctionType, types.BuiltinFunctionType, classmethod, staticmethod, property)
_snapshot = {}  # type: dict[str, object]


def _private_fd():
    number = os.environ.pop("SEEBENCH_OUTCOMES_FD", None)
    if not number:
        return None
    fd = int(number)
    private = os.dup(fd)  # dup: non-inheritable, so a subprocess of a test never holds it
    os.close(fd)
    return private


_FD = _private_fd()
_write = os.write
_dumps = json.dumps


def _send(value):
    if _FD is not None:
        with contextlib.suppress(OSError):  # OSError: the driver is gone, nobody listens
            _write(_FD, (_dumps(value) + "\n").encode("utf-8"))


def _set(nodeid, outcome):
    if _outcomes.get(nodeid) == outcome:
        return
    _outcomes[nodeid] = outcome
    _send([nodeid, outcome])


def _coverage():
    try:
        import coverage
    except ImportError:
        return None
    current = getattr(coverage.Coverage, "current", None)
    return current() if current else None


def _origin(plugin):
    """The file a plugin's code comes from (``<name>`` when it has none)."""
    if isinstance(plugin, types.ModuleType):
        module = plugin
    else:  # a class registered as a plugin, or an instance of one
        owner = plugin if isinstance(plugin, type) else type(plugin)
        module = sys.modules.get(getattr(owner, "__module__", ""))
    name = getattr(module, "__name__", "?")
    path = getattr(module, "__file__", None)
    return os.path.realpath(path) if path else f"<{name}>"


def _code_state():
    """id of every function, class and class member of the watched modules, by name."""
    found = {}
    for name in _WATCHED:
        module = sys.modules.get(name)
        for attr, value in list(vars(module).items()) if module is not None else ():
            if isinstance(value, type) and getattr(value, "__module__", "") == name:
                found[name + "." + attr] = id(value)
                for key, member in list(vars(value).items()):
                    if isinstance(member, _CODE):
                        found[name + "." + attr + "." + key] = id(member)
            elif isinstance(value, _CODE):
                found[name + "." + attr] = id(value)
    return found


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


def pytest_sessionstart(session):
    _session.append(session)
    _snapshot.update(_code_state())  # after every plugin and conftest, before the tests


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    status = getattr(_session[0], "exitstatus", None) if _session else None
    plugins = config.pluginmanager.get_plugins()
    origins = sorted({_origin(plugin) for plugin in plugins if plugin is not None})
    now = _code_state()
    patched = sorted(name for name, ident in _snapshot.items() if now.get(name) != ident)
    end = {"end": None if status is None else int(status), "plugins": origins}
    _send({**end, "patched": patched[:5]})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    cov = _coverage()
    if cov is not None:
        cov.switch_context(item.nodeid)
    yield
    if cov is not None:
        cov.switch_context("")
