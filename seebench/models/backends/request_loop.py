"""The request loop: one asyncio event loop, in one daemon thread, for every request this
process sends to a served model (the ``openai`` backend and the managed servers).

A backend hands the loop a batch of requests and reads the replies as they arrive
(:meth:`RequestLoop.run`); the calling thread only waits on a queue, so no thread holds a
connection pool's lock while another waits for it. Requests to one server (the same URL and
``concurrency``) share a :class:`ServerPool`: at most ``concurrency`` of them are in flight,
whichever backend, model client or unit sent them, so units that run at once
(:mod:`seebench.executors.local` runs units of served models side by side) keep the server at
its limit instead of each filling it in turn. Slots are handed out first come, first served,
so the earlier unit's requests go first and it finishes first.

The loop starts on the first request and ends with the process (its connections are closed
at exit); a forked child starts its own. Once it runs, the process switches threads every
:data:`SWITCH_INTERVAL_S` instead of Python's 5 ms, so that replies are read (and the next
requests sent) promptly while other threads compute. A unit that kept its turn at preparing
data (:mod:`seebench.turns`) passes it on once the loop has written its first request (at
most :data:`SEND_WAIT_S` later).
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import queue
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar

from seebench import turns

T = TypeVar("T")

#: The interpreter's thread switch interval once a request loop runs (Python's default is
#: 5 ms): a reply that arrives while another thread computes waits at most this long for
#: the loop's thread to read it and send the next request.
SWITCH_INTERVAL_S = 0.001

#: The longest a unit that kept its turn at preparing waits for its first request to be
#: written before it lets the next unit prepare anyway.
SEND_WAIT_S = 1.0

#: How long the waiting thread sleeps between checks: a unit thread abandoned at its time
#: limit stops within this (its exception is delivered only while Python code runs).
POLL_S = 0.1


def env_proxy(url: str) -> str | None:
    """The proxy ``HTTP_PROXY``/``HTTPS_PROXY`` name for ``url`` unless ``NO_PROXY`` exempts
    its host (as httpx, the client before this loop, honoured them)."""
    import urllib.request
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.hostname and urllib.request.proxy_bypass(parts.hostname):
        return None
    return urllib.request.getproxies().get(parts.scheme) or None


class ServerPool:
    """The requests in flight to one server: ``limit`` slots and one aiohttp session whose
    connections (at most ``limit``) are kept alive between requests. Lives on the loop."""

    def __init__(self, limit: int, on_sent: Callable[[], None] = lambda: None) -> None:
        self.limit = max(1, int(limit))
        self._on_sent = on_sent  # called on the loop each time a request has been written
        self._slots = asyncio.Semaphore(self.limit)
        self._session: Any = None
        self._proxy: str | None = None
        self.in_flight = 0
        self.peak = 0  # the most requests in flight at once (tests and benchmarks read it)

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold one of the ``limit`` slots (waiting for one if all are taken)."""
        async with self._slots:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            try:
                yield
            finally:
                self.in_flight -= 1

    async def post(
        self, url: str, body: Any, headers: dict[str, str], timeout_s: float
    ) -> tuple[int, Any, bytes]:
        """POST ``body`` as JSON: ``(status, headers, body bytes)``. ``timeout_s`` bounds the
        whole request, however slowly the server sends its reply (``TimeoutError``);
        transport failures raise ``aiohttp.ClientError``."""
        import aiohttp

        if self._session is None:
            connector = aiohttp.TCPConnector(limit=self.limit, limit_per_host=self.limit)
            tracing = aiohttp.TraceConfig()
            tracing.on_request_headers_sent.append(self._sent)
            self._session = aiohttp.ClientSession(connector=connector, trace_configs=[tracing])
            self._proxy = env_proxy(url)  # once: aiohttp's trust_env looks it up per request
        timeout = aiohttp.ClientTimeout(total=timeout_s)
        async with self._session.post(
            url, json=body, headers=headers, timeout=timeout, proxy=self._proxy
        ) as reply:
            return reply.status, reply.headers, await reply.read()

    async def _sent(self, *_: Any) -> None:
        self._on_sent()

    async def close(self) -> None:
        """Close the session and its connections."""
        if self._session is not None:
            await self._session.close()
            self._session = None


class RequestLoop:
    """The process's request loop; see the module docstring. Use :func:`request_loop`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pools: dict[tuple[Any, ...], ServerPool] = {}
        self._send_waiters: list[threading.Event] = []

    def _running(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                # the loop's thread waits for the interpreter's lock whenever another thread
                # computes (a unit preparing or scoring); a shorter switch interval lets it
                # send the next request sooner
                sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
                loop = asyncio.new_event_loop()
                thread = threading.Thread(
                    target=loop.run_forever, name="seebench request loop", daemon=True
                )
                thread.start()
                self._loop = loop
            return self._loop

    def _next_send(self) -> threading.Event:
        """An event set when the loop next writes a request (to any server)."""
        event = threading.Event()
        with self._lock:
            self._send_waiters.append(event)
        return event

    def _request_sent(self) -> None:
        with self._lock:
            waiters, self._send_waiters = self._send_waiters, []
        for event in waiters:
            event.set()

    def pool(self, key: tuple[Any, ...], limit: int) -> ServerPool:
        """The pool of the server ``key`` with ``limit`` slots (made on first use; call it on
        the loop)."""
        pool = self._pools.get((*key, limit))
        if pool is None:
            pool = self._pools[(*key, limit)] = ServerPool(limit, self._request_sent)
        return pool

    def peak(self, key: tuple[Any, ...], limit: int) -> int:
        """The most requests that were in flight at once to the server ``key``."""
        pool = self._pools.get((*key, limit))
        return pool.peak if pool is not None else 0

    def run(self, count: int, request: Callable[[int], Awaitable[T]]) -> Iterator[tuple[int, T]]:
        """Run ``request(0)`` ... ``request(count - 1)`` on the loop; yield ``(i, result)``
        as each ends. A request's exception is raised here (the others are cancelled), and
        so are the requests not yet answered when the caller stops reading (an exception,
        Ctrl-C, a unit abandoned at its time limit)."""
        if count <= 0:
            return
        replies: queue.SimpleQueue[tuple[int, Any, BaseException | None]] = queue.SimpleQueue()
        loop = self._running()
        sent = self._next_send() if turns.keeping() else None
        batch = asyncio.run_coroutine_threadsafe(_batch(count, request, replies), loop)
        try:
            if sent is not None:  # a unit that kept its turn at preparing lets the next one
                sent.wait(SEND_WAIT_S)  # prepare once its first request is on its way
                turns.sending()
            for _ in range(count):
                while True:
                    try:
                        index, value, error = replies.get(timeout=POLL_S)
                        break
                    except queue.Empty:
                        if batch.done():  # it ended without a reply: cancelled or broken
                            raise batch.exception() or RuntimeError("request batch ended") from None
                if error is not None:
                    raise error
                yield index, value
        finally:
            if not batch.done():
                loop.call_soon_threadsafe(batch.cancel)

    def close(self, timeout_s: float = 2.0) -> None:
        """Close every pool's connections and stop the loop (at exit)."""
        with self._lock:
            loop, self._loop = self._loop, None
        if loop is None or loop.is_closed():
            return

        async def finish() -> None:
            for pool in list(self._pools.values()):
                await pool.close()
            self._pools.clear()

        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(finish(), loop).result(timeout_s)
        loop.call_soon_threadsafe(loop.stop)


async def _batch(
    count: int,
    request: Callable[[int], Awaitable[Any]],
    replies: queue.SimpleQueue[tuple[int, Any, BaseException | None]],
) -> None:
    """Every request of one batch as its own task; each result (or error) is put on
    ``replies`` as it ends. Cancelled, it cancels the requests still running."""

    async def one(index: int) -> None:
        try:
            value = await request(index)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # handed to the waiting thread
            replies.put((index, None, exc))
        else:
            replies.put((index, value, None))

    tasks = [asyncio.ensure_future(one(i)) for i in range(count)]
    try:
        await asyncio.gather(*tasks)
    except asyncio.CancelledError:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


_LOOP: RequestLoop | None = None
_LOOP_LOCK = threading.Lock()


def request_loop() -> RequestLoop:
    """This process's request loop (made on first use)."""
    global _LOOP
    with _LOOP_LOCK:
        if _LOOP is None:
            _LOOP = RequestLoop()
            atexit.register(_LOOP.close)
        return _LOOP


def _forget_in_child() -> None:
    """A forked child has no loop thread: it makes its own on first use."""
    global _LOOP
    if _LOOP is not None:
        atexit.unregister(_LOOP.close)
        _LOOP._loop = None  # the parent's loop thread does not exist here
    _LOOP = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)
