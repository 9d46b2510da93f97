"""A deadline for a whole HTTP request, however slowly the server answers.

httpx's timeouts bound each socket read: a server that sends one byte every half second keeps
a request with ``timeout=2`` alive for ever. Here every read, write and connect of a request
is given at most the time left until the request's deadline (kept per thread: httpx's sync
client runs a request in the calling thread), and once it has passed the next socket operation
raises ``httpcore.ReadTimeout``, which httpx reports as ``httpx.ReadTimeout``.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpcore

_local = threading.local()


@contextlib.contextmanager
def request_deadline(seconds: float) -> Iterator[None]:
    """Bound every socket operation of the requests made in this block (in this thread) by
    one deadline ``seconds`` from now."""
    previous = getattr(_local, "deadline", None)
    _local.deadline = time.monotonic() + seconds
    try:
        yield
    finally:
        _local.deadline = previous


def _clamp(timeout: float | None) -> float | None:
    deadline = getattr(_local, "deadline", None)
    if deadline is None:
        return timeout
    left = deadline - time.monotonic()
    if left <= 0:
        raise httpcore.ReadTimeout("the request's deadline passed")
    return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _clamp(timeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _clamp(timeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None, timeout=None):
        return _DeadlineStream(self._inner.start_tls(ssl_context, server_hostname, _clamp(timeout)))

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend with every operation clamped to the thread's deadline."""

    def __init__(self, inner: httpcore.NetworkBackend | None = None) -> None:
        self._inner = inner or httpcore.SyncBackend()

    def connect_tcp(self, host, port, timeout=None, local_address=None, socket_options=None):
        stream = self._inner.connect_tcp(host, port, _clamp(timeout), local_address, socket_options)
        return _DeadlineStream(stream)

    def connect_unix_socket(self, path, timeout=None, socket_options=None):
        return _DeadlineStream(
            self._inner.connect_unix_socket(path, _clamp(timeout), socket_options)
        )

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def deadline_transport(httpx: Any) -> Any:
    """An ``httpx.HTTPTransport`` whose connections honour :func:`request_deadline`."""
    transport = httpx.HTTPTransport()
    pool = getattr(transport, "_pool", None)
    if pool is not None and hasattr(pool, "_network_backend"):
        pool._network_backend = DeadlineBackend(pool._network_backend)
    return transport
