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
