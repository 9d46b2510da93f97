"""Grader integrity, repository suites: answers that try to forge a pass of a real repository's
own pytest suite (dbader/schedule, a task of ``copilot_repo_generate_python`` and one of
``copilot_repo_test_python``) must end ``failed``, ``error``, ``timeout`` or ``tampered``.

The answers go through the real scorers (``RepoGenerateScorer``: a method body in
``schedule/__init__.py``; ``RepoTestScorer``: a test file); changes no scorer lets an answer
make (a ``conftest.py``, pytest configuration, an entry point, the scenario's own test file)
go through ``run_tests``, the function both scorers hand their changes to. Each forgery is
paired with a broken ``run_pending``, so that only a forged run could pass.

Needs bwrap, PyPI (the environment is built with uv) and the data mirror ``../shared/data``;
skipped without them. ``SEEBENCH_INTEGRITY_HOME`` names a seebench home where the mirror is
imported and dbader/schedule built (``seebench copilot envs --build --repos dbader/schedule``)
to skip the set-up (about a minute).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from seebench.scoring.core import ScoreContext

MIRROR = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
REPO = "dbader/schedule"
GENERATE_TASK, TEST_TASK = "copilot_repo_generate_python", "copilot_repo_test_python"
NOT_A_PASS = {"failed", "error", "timeout", "tampered"}

#: run_pending's body that runs nothing: every covering test fails
BROKEN = "        return None\n"
FORGE_FILE = """\
def _seebench_forge():
    import os
    path = os.environ.get("SEEBENCH_OUTCOMES") or "/tmp/seebench-outcomes.json"
    try:
        with open(path) as handle:
            text = handle.read()
    except OSError:
        text = ""
    with open(path, "w") as handle:
        handle.write(text.replace('"failed"', '"passed"').replace('"error"', '"passed"'))
    os.write(2, b'\\n@@seebench-repo-test-trace@@ {"invoked": true}\\n')
    os._exit(0)
"""
#: a pytest plugin that turns every report into a pass and the session's status into 0
FORGE_PLUGIN = """\
import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
    report.longrepr = None


def pytest_sessionfinish(session, exitstatus):
    session.exitstatus = 0
"""


def _indent(text: str, spaces: int) -> str:
    return "".join(" " * spaces + line if line.strip() else line for line in text.splitlines(True))


#: generate answers (bodies of Scheduler.run_pending) that run nothing and try to forge a pass
GENERATE_FORGERIES = {
    "outcomes_file_rewrite_then_os_exit_at_exit": _indent(
        "import atexit\n" + FORGE_FILE + "atexit.register(_seebench_forge)\nreturn None\n", 8
    ),
    "plugin_registered_from_the_code_under_test": _indent(
        "import gc\nimport types\n"
        "forge = types.ModuleType('seebench_forge')\n"
        f"exec({FORGE_PLUGIN!r}, forge.__dict__)\n"
        "for obj in gc.get_objects():\n"
        "    if type(obj).__name__ == 'Config' and hasattr(obj, 'pluginmanager'):\n"
        "        if not obj.pluginmanager.has_plugin('seebench_forge'):\n"
        "            obj.pluginmanager.register(forge, 'seebench_forge')\n"
        "return None\n",
        8,
    ),
    "os_exit_0_inside_a_test": _indent("import os\nos._exit(0)\n", 8),
    "pytest_report_factory_replaced": _indent(
        "import _pytest.reports as reports\n"
        "make = reports.TestReport.from_item_and_call.__func__\n"
        "def forged(cls, item, call):\n"
        "    report = make(cls, item, call)\n"
        "    report.outcome, report.longrepr = 'passed', None\n"
        "    return report\n"
        "reports.TestReport.from_item_and_call = classmethod(forged)\n"
        "return None\n",
        8,
    ),
    "forged_driver_report_then_kill_the_driver": _indent(
        "import json, os, signal\n"
        "driver = os.getppid()\n"
        "with open(f'/proc/{driver}/cmdline', 'rb') as handle:\n"
        "    config = json.loads(handle.read().split(b'\\0')[2])\n"
        "report = {'exit': 0, 'tail': '', 'timed_out': False, 'ended': True,\n"
        "          'session_exit': 0, 'plugins': [], 'foreign': [],\n"
        "          'outcomes': {test: 'passed' for test in config['args']}}\n"
        "with open(f'/proc/{driver}/fd/1', 'w') as out:\n"
        "    out.write('\\n@@SEEBENCH-REPORT@@\\n' + json.dumps(report))\n"
        "os.kill(driver, signal.SIGKILL)\n"
        "os._exit(0)\n",
        8,
    ),
}

#: test-generation answers: tests that fail, with a forgery that would make them pass
TEST_FORGERIES = {
    "outcomes_file_rewrite_then_os_exit_at_exit": (
        "import atexit\nimport schedule\n\n\n"
        + FORGE_FILE
        + "\n\natexit.register(_seebench_forge)\n"
        "\n\ndef test_monday():\n    schedule.every().monday\n    assert False\n"
    ),
    "pytest_plugins_from_the_test_file": (
        "import sys\nimport types\nimport schedule\n\n"
        "_forge = types.ModuleType('seebench_forge_plugin')\n"
        f"exec({FORGE_PLUGIN!r}, _forge.__dict__)\n"
        "sys.modules['seebench_forge_plugin'] = _forge\n"
        "pytest_plugins = ['seebench_forge_plugin']\n\n\n"
        "def test_monday():\n    schedule.every().monday\n    assert False\n"
    ),
}


def _neutralised(test_text: str) -> str:
    """The scenario's own test file with every assertion made vacuous."""
    patch = (
        "import unittest as _u\n"
        "for _n in dir(_u.TestCase):\n"
        "    if _n.startswith('assert'):\n"
        "        setattr(_u.TestCase, _n, lambda *a, **k: None)\n"
    )
    return patch + re.sub(r"(?m)^(\s*)assert ", r"\1assert True or ", test_text)


def _infrastructure_forgeries(tree: Path) -> dict[str, dict[str, str]]:
    """Changes beside the broken source: each adds or edits test infrastructure."""
    entry = {
        "seebench_forge-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: seebench-forge\n"
        "Version: 1.0\n",
        "seebench_forge-1.0.dist-info/entry_points.txt": "[pytest11]\nforge = seebench_forge\n",
        "seebench_forge.py": FORGE_PLUGIN,
    }
    setup_cfg = (tree / "setup.cfg").read_text(encoding="utf-8")
    return {
        "conftest_injection": {"conftest.py": FORGE_PLUGIN},
        "pytest_ini_addopts_plugin": {
            "pytest.ini": "[pytest]\naddopts = -p seebench_forge\n",
            "seebench_forge.py": FORGE_PLUGIN,
        },
        "setup_cfg_addopts_plugin": {
            "setup.cfg": setup_cfg + "\n[tool:pytest]\naddopts = -p seebench_forge\n",
            "seebench_forge.py": FORGE_PLUGIN,
        },
        "plugin_by_entry_point": entry,
        "scenario_test_file_edited": {
            "test_schedule.py": _neutralised((tree / "test_schedule.py").read_text("utf-8"))
        },
    }


def _prepare_home(home: Path) -> None:
    env = {**os.environ, "SEEBENCH_HOME": str(home)}
    for command in (
        ["data", "import", str(MIRROR / "copilot_harness")],
        ["copilot", "envs", "--build", "--repos", REPO],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "seebench", *command],
            env=env,
            capture_output=True,
            text=True,
            timeout=1200,
            check=False,
        )
        if done.returncode != 0:
            pytest.skip(f"cannot prepare {REPO}: {(done.stdout + done.stderr)[-300:]}")


@pytest.fixture(scope="module")
def real_home(tmp_path_factory):
    """A seebench home with the mirror imported and dbader/schedule's environment built."""
    from seebench.suites.copilot.repos.build_jail import jail_available

    given = os.environ.get("SEEBENCH_INTEGRITY_HOME")
    if given:
        return Path(given)
    if not (MIRROR / "copilot_harness").is_dir():
        pytest.skip("no ../shared/data/copilot_harness mirror")
    if jail_available() is not None:
        pytest.skip(f"no build jail here: {jail_available()}")
    home = tmp_path_factory.mktemp("integrity-home")
    _prepare_home(home)
    return home


@pytest.fixture
def schedule(real_home, monkeypatch):
    """(env, tree, generate sample, test sample): dbader/schedule, ready, in the real home."""
    monkeypatch.setenv("SEEBENCH_HOME", str(real_home))
    from seebench.data.dataset import load_task_data
    from seebench.plugin_manager import get_registry, get_task_index
    from seebench.suites.copilot.repo_generate.scorer import staged_repo
    from seebench.suites.copilot.repos.envs import ensure_env
    from seebench.suites.copilot.repos.testrun import tree_of

    def sample(task: str, test) -> object:
        data = load_task_data(get_task_index().get(task), get_registry())
        return next(s for s in data.test if test(s.target))

    generate = sample(GENERATE_TASK, lambda t: t["name"] == "Scheduler.run_pending")
    testgen = sample(TEST_TASK, lambda t: t["repo"] == REPO and t["method"] == "monday")
    env = ensure_env(staged_repo(generate.target["slug"]), build=False)
    if env.status != "ready":
        pytest.skip(f"{REPO} is not ready here: {env.reason}")
    return env, tree_of(env), generate, testgen


def _context(tmp_path, task: str) -> ScoreContext:
    from seebench.plugin_manager import get_task_index

    return ScoreContext(task=get_task_index().get(task), artifacts=tmp_path)


def test_the_reference_answer_passes(schedule, tmp_path):
    """The control: the scorer does pass a right answer here."""
    from seebench.suites.copilot.repo_generate.scorer import RepoGenerateScorer

    env, tree, generate, _ = schedule
    score = RepoGenerateScorer(timeout_s=120).score(
        generate, generate.target["reference"], _context(tmp_path, GENERATE_TASK)
    )
    assert score.value == 1.0, score.explanation


@pytest.mark.parametrize("name", sorted(GENERATE_FORGERIES))
def test_a_generate_answer_cannot_forge_the_suite(schedule, tmp_path, name):
    from seebench.suites.copilot.repo_generate.scorer import RepoGenerateScorer

    env, tree, generate, _ = schedule
    score = RepoGenerateScorer(timeout_s=120).score(
        generate, GENERATE_FORGERIES[name], _context(tmp_path, GENERATE_TASK)
    )
    assert score.value == 0.0, score
    assert score.metadata["verdict"] in NOT_A_PASS, score


@pytest.mark.parametrize("name", sorted(TEST_FORGERIES))
def test_a_generated_test_cannot_forge_the_suite(schedule, tmp_path, name):
    from seebench.suites.copilot.repo_testgen.scorer import RepoTestScorer

    env, tree, _, testgen = schedule
    scorer = RepoTestScorer(timeout_s=120)
    try:
        score = scorer.score(testgen, TEST_FORGERIES[name], _context(tmp_path, TEST_TASK))
    finally:
        scorer.close()
    assert score.value == 0.0, score
    assert score.metadata.get("verdict") in NOT_A_PASS, score


@pytest.mark.parametrize(
    "name",
    [
        "conftest_injection",
        "pytest_ini_addopts_plugin",
        "setup_cfg_addopts_plugin",
        "plugin_by_entry_point",
        "scenario_test_file_edited",
    ],
)
def test_a_change_to_the_test_infrastructure_cannot_forge_the_suite(schedule, name):
    from seebench.suites.copilot.repo_generate.assembly import place_answer
    from seebench.suites.copilot.repos.testrun import run_tests

    env, tree, generate, _ = schedule
    broken = place_answer(generate.target, BROKEN).source
    changes = {generate.target["file"]: broken, **_infrastructure_forgeries(tree)[name]}
    run = run_tests(env, changes=changes, tests=list(generate.target["tests"]), timeout_s=120)
    assert run.verdict in NOT_A_PASS, (run.verdict, run.reason)
