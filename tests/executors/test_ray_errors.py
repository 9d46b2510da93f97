"""The ray executor's one-line errors that need no running Ray: Ray missing, an address where
nothing answers."""

from __future__ import annotations

import socket
import sys

import pytest

from seebench.errors import SeebenchError
from seebench.executors.base import ExecutorOptions
from seebench.executors.ray_executor import RayExecutor, check_address


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_ray_missing_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    with pytest.raises(SeebenchError, match=r"Ray is not installed; install it with pip install"):
        RayExecutor(ExecutorOptions()).start([])


def test_an_address_that_does_not_answer_is_one_line():
    port = free_port()
    with pytest.raises(SeebenchError, match=rf"--ray-address 127.0.0.1:{port}: nothing answers at"):
        check_address(f"127.0.0.1:{port}", timeout=2)
    with pytest.raises(SeebenchError, match="expected HOST:PORT"):
        check_address("127.0.0.1:http")


def test_the_executor_checks_the_address_before_joining(monkeypatch):
    pytest.importorskip("ray")
    import ray

    if ray.is_initialized():
        pytest.skip("this process is already connected to a Ray")
    port = free_port()
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    with pytest.raises(SeebenchError, match="nothing answers"):
        RayExecutor(ExecutorOptions()).start([])
    assert not ray.is_initialized()
