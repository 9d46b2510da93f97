"""Fixtures: a tiny model directory, and stand-in ``vllm`` / ``sglang`` / ``llama_cpp.server``
installations."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from seebench.models.servers import process

STAND_IN = Path(__file__).with_name("stand_in_server.py")


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    """A model directory with a config, a tokenizer file and one weight file."""
    directory = tmp_path / "tiny-model"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"]}))
    (directory / "tokenizer.json").write_text("{}")
    (directory / "model.safetensors").write_bytes(b"\0" * 64)
    return directory


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``vllm`` and ``llama-server`` executables on PATH and an importable ``sglang`` (with metadata) that run the
    stand-in server; returns the folder where the stand-in writes its pid and arguments."""
    folder = tmp_path / "stand-in"
    folder.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for program in ("vllm", "llama-server"):
        executable = bin_dir / program
        executable.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{STAND_IN}" "$@"\n')
        executable.chmod(0o755)
    packages = tmp_path / "site"
    (packages / "sglang").mkdir(parents=True)
    (packages / "sglang" / "__init__.py").write_text("")
    (packages / "sglang" / "launch_server.py").write_text(
        "import runpy, sys\n"
        f"sys.argv = [{str(STAND_IN)!r}] + sys.argv[1:]\n"
        f"runpy.run_path({str(STAND_IN)!r}, run_name='__main__')\n"
    )
    info = packages / "sglang-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sglang\nVersion: 0.0.1\n")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.delenv("SEEBENCH_LLAMA_SERVER", raising=False)
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(packages), os.environ.get("PYTHONPATH")]))
    )
    monkeypatch.syspath_prepend(str(packages))
    monkeypatch.setenv("STAND_IN_DIR", str(folder))
    monkeypatch.setattr(process, "STOP_GRACE_S", 2.0)
    yield folder
    process.stop_all()


@pytest.fixture
def fake_llama_cpp(tmp_path, monkeypatch, stand_in):
    """An importable ``llama_cpp.server`` (with metadata) that runs the stand-in server."""
    packages = tmp_path / "llama-site"
    (packages / "llama_cpp" / "server").mkdir(parents=True)
    (packages / "llama_cpp" / "__init__.py").write_text("")
    (packages / "llama_cpp" / "server" / "__init__.py").write_text("")
    (packages / "llama_cpp" / "server" / "__main__.py").write_text(
        "import runpy, sys\n"
        f"sys.argv = [{str(STAND_IN)!r}] + sys.argv[1:]\n"
        f"runpy.run_path({str(STAND_IN)!r}, run_name='__main__')\n"
    )
    info = packages / "llama_cpp_python-0.0.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: llama_cpp_python\nVersion: 0.0.2\n"
    )
    monkeypatch.setenv("PYTHONPATH", f"{packages}{os.pathsep}{os.environ['PYTHONPATH']}")
    monkeypatch.syspath_prepend(str(packages))
    monkeypatch.setattr("seebench.models.servers.kinds.LlamaCppServer.server_modules", ())
    return stand_in


def pid_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def read_pid(folder: Path, name: str = "server.pid") -> int:
    return int((folder / name).read_text())
