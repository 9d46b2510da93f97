"""Telling transient failures from deterministic ones, and the backoff."""

from __future__ import annotations

import pytest

from seebench.errors import SeebenchError
from seebench.executors.retry import TransientError, backoff_seconds, is_transient


class OutOfMemoryError(RuntimeError):  # the name torch.cuda and Ray use
    pass


def test_transient_failures():
    assert is_transient(ConnectionRefusedError("down"))
    assert is_transient(TimeoutError())
    assert is_transient(MemoryError())
    assert is_transient(OutOfMemoryError("CUDA out of memory"))
    assert is_transient(TransientError("try later"))
    try:
        try:
            raise ConnectionError("reset")
        except ConnectionError as exc:
            raise SeebenchError("the model server stopped answering") from exc
    except SeebenchError as wrapped:
        assert is_transient(wrapped)


def test_the_request_loops_transport_failures_are_transient():
    aiohttp = pytest.importorskip("aiohttp", reason="the api extra")
    assert is_transient(aiohttp.ServerDisconnectedError())
    assert is_transient(aiohttp.ClientPayloadError("cut"))
    assert is_transient(aiohttp.ServerTimeoutError())
    assert not is_transient(aiohttp.ClientResponseError(None, (), status=400))


def test_deterministic_failures():
    assert not is_transient(ValueError("bad label"))
    assert not is_transient(SeebenchError("unknown option"))
    assert not is_transient(KeyError("x"))


def test_backoff_doubles_within_its_cap_and_jitter():
    assert backoff_seconds(1, 2.0, jitter=0) == 2.0
    assert backoff_seconds(3, 2.0, jitter=0) == 8.0
    assert backoff_seconds(10, 2.0, cap=30, jitter=0) == 30
    assert 1.5 <= backoff_seconds(1, 2.0, jitter=0.25) <= 2.5
