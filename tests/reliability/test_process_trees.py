"""Process trees (class 11): no process of a managed server outlives seebench or its
supervisor. A stand-in ``vllm`` forks a child in its group, an orphaned grandchild and a child
in its own session; each must be gone after a normal stop, after ``kill -9`` of the supervisor
and after ``kill -9`` of seebench itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from seebench.models import resolve_model
from seebench.models.client import ModelClient
from seebench.models.servers import process
from seebench.models.servers.process import running_servers, stop_all
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="process trees are watched through /proc"
)
TREE = Path(__file__).with_name("tree_server.py")
NAMES = ("child", "orphan", "detached")


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(") ", 1)[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _gone(pids: dict[str, int], seconds: float = 15) -> list[str]:
    """The names of ``pids`` still running after up to ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [name for name, pid in pids.items() if _alive(pid)]
        if not left:
            return []
        time.sleep(0.1)
    return left


def _tree(folder: Path) -> dict[str, int]:
    """The pids of the server and its tree, once the server wrote them all."""
    deadline = time.monotonic() + 60
    while not all((folder / f"{n}.pid").is_file() for n in (*NAMES, "server")):
        assert time.monotonic() < deadline, "the stand-in did not start its tree"
        time.sleep(0.1)
    time.sleep(1.5)  # the supervisor's watch (every 0.5 s) has seen them
    return {n: int((folder / f"{n}.pid").read_text()) for n in (*NAMES, "server")}


@pytest.fixture
def tree_env(tmp_path, monkeypatch):
    folder = tmp_path / "stand-in"
    folder.mkdir()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    vllm = bin_dir / "vllm"
    vllm.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{TREE}" "$@"\n')
    vllm.chmod(0o755)
    model = tmp_path / "tiny-model"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLM"]}))
    (model / "model.safetensors").write_bytes(b"\0" * 64)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("STAND_IN_DIR", str(folder))
    monkeypatch.setattr(process, "STOP_GRACE_S", 2.0)
    yield folder, model
    stop_all()


def _start(model_dir: Path) -> None:
    model, _ = resolve_model(f"vllm:{model_dir}")
    client = ModelClient(model, {"cache": False})
    assert client.chat([{"role": "user", "content": "hi"}], max_new_tokens=4).text


def test_a_normal_stop_ends_the_whole_tree(tree_env):
    folder, model_dir = tree_env
    _start(model_dir)
    pids = _tree(folder)
    assert all(_alive(pid) for pid in pids.values())
    stop_all()
    assert _gone(pids) == []


def test_kill_9_of_the_supervisor_ends_the_whole_tree(tree_env):
    folder, model_dir = tree_env
    _start(model_dir)
    pids = _tree(folder)
    (server,) = running_servers()
    os.kill(server.process.pid, signal.SIGKILL)
    server.process.wait()
    assert _gone(pids) == []


def test_kill_9_of_seebench_ends_the_whole_tree(tree_env):
    folder, model_dir = tree_env
    script = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from seebench.models import resolve_model\n"
        "from seebench.models.client import ModelClient\n"
        "model, _ = resolve_model('vllm:' + sys.argv[1])\n"
        "ModelClient(model, {'cache': False}).chat([{'role': 'user', 'content': 'hi'}],"
        " max_new_tokens=4)\n"
        "Path(sys.argv[2]).write_text('up')\n"
        "time.sleep(600)\n"
    )
    ready = folder / "ready"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    run = subprocess.Popen(
        [sys.executable, "-c", script, str(model_dir), str(ready)], env=env, cwd=REPO_ROOT
    )
    try:
        pids = _tree(folder)
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        run.send_signal(signal.SIGKILL)
        run.wait()
        assert _gone(pids) == []
    finally:
        run.kill()
        run.wait()
