"""A tiny task and an in-process ``seebench eval`` for the tracker tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import make_binary_task

SECRET = "wbkey-DO-NOT-WRITE-0123456789"


@pytest.fixture
def tracked(tmp_path, monkeypatch):
    """(run eval with extra args -> exit code, tmp dir); nothing leaves the machine."""
    make_binary_task(tmp_path / "tasks", "tiny", rows=20)
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(tmp_path / "tasks"))
    for name in ("WANDB_API_KEY", "MLFLOW_TRACKING_TOKEN", "MLFLOW_TRACKING_PASSWORD"):
        monkeypatch.setenv(name, SECRET)

    def run(*args: str) -> int:
        from seebench.cli.main import main

        argv = ["eval", "--model", "majority", "--tasks", "tiny", "--no-progress"]
        argv += ["--output", str(tmp_path / "out"), "--bootstrap", "0", *args]
        with pytest.raises(SystemExit) as done:
            main(argv)
        return int(done.value.code or 0)

    return run, tmp_path


def files_containing(root: Path, text: str) -> list[Path]:
    """Every file below ``root`` whose bytes contain ``text``."""
    needle = text.encode()
    return [p for p in root.rglob("*") if p.is_file() and needle in p.read_bytes()]
