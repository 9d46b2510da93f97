"""``seebench --help`` and ``seebench tasks list`` must not import heavy libraries."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

HEAVY = (
    "torch",
    "transformers",
    "xgboost",
    "fasttext",
    "deepspeed",
    "peft",
    "matplotlib",
    "sklearn",
    "numpy",
    "ray",
    "wandb",
    "mlflow",
    "starlette",
    "huggingface_hub",
)

PROBE = """
import sys
from seebench.cli.main import main
try:
    main({args!r})
except SystemExit:
    pass
heavy = sorted(m for m in {heavy!r} if m in sys.modules)
print("HEAVY:" + ",".join(heavy), file=sys.stderr)
"""


@pytest.mark.parametrize("args", [["--help"], ["tasks", "list"], ["plugins", "--all"]])
def test_no_heavy_imports(args):
    code = PROBE.format(args=args, heavy=HEAVY)
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        timeout=120,
    )
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("HEAVY:")][-1]
    assert line == "HEAVY:", f"{args} imported {line[6:]}"


#: seebench's own heavier modules that start-up (``--help``) leaves for the commands that use
#: them: plugin modules register import paths and option schemas, not implementations
UNUSED_AT_START = (
    "importlib.metadata",  # the entry points come from their cache once it is written
    "urllib.request",  # only to fetch data
    "seebench.sandbox.pool",
    "seebench.data.dataset",
    "seebench.suites.copilot.doc.scorer",
    "seebench.suites.copilot.testgen.scorer",
    "seebench.suites.copilot.repo_fix.scorer",
    "seebench.suites.copilot.workspace.scorer",
    "seebench.suites.copilot.fix.analyzers",
)


def test_start_up_leaves_scorers_the_sandbox_and_metadata_unimported(tmp_path):
    code = PROBE.format(args=["--help"], heavy=UNUSED_AT_START)
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "SEEBENCH_HOME": str(tmp_path)}
    env.pop("SEEBENCH_NO_PLUGIN_CACHE", None)
    for _ in range(2):  # the first start writes the entry-point cache
        proc = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
        )
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("HEAVY:")][-1]
    assert line == "HEAVY:", f"--help imported {line[6:]}"
