"""Turns at preparing: the threads of one process read and prepare task data one at a time.

Units of a served model run side by side in threads of one process (the local executor);
preparing their data is Python work that only shares the interpreter's lock, so preparing all
of them at once would delay every unit's first request until all were ready. Instead a thread
takes the process's turn (:func:`preparing`) while it reads and prepares, and the turn passes
on. A unit whose work is requests may **keep** the turn after its data is ready
(:func:`kept_until_sending`) until it hands its first requests to the request loop
(:func:`sending`), so that the first unit's requests go out before the next unit prepares.

Units that start together (:func:`take_ticket`, :func:`in_order`) prepare in the order they
started, so that the same sweep sends its units' requests in the same order every time.

Nothing waits for long: a thread waits for a turn in use at most the ``wait_s`` it asks for
(then it prepares anyway), and for a kept turn, or for the units before it in order, at most
:data:`KEEP_MAX_S` (a unit that prepares for longer before it sends, or sends from threads of
its own, stops holding the others up).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

#: the longest a kept turn holds the other threads up
KEEP_MAX_S = 3.0


class _Turn:
    """The process's turn: held by at most one thread at a time (re-entrant), or kept after
    use until a deadline."""

    def __init__(self) -> None:
        self._ready = threading.Condition()
        self._holder: int | None = None
        self._depth = 0
        self._kept_until: float | None = None  # monotonic deadline of a kept turn
        self._keeper: int | None = None

    def acquire(self, wait_s: float) -> bool:
        """Take the turn; ``False`` when ``wait_s`` passed first (go on without it)."""
        me = threading.get_ident()
        deadline = time.monotonic() + wait_s
        with self._ready:
            while True:
                now = time.monotonic()
                if self._kept_until is not None and (self._keeper == me or now >= self._kept_until):
                    self._kept_until = self._keeper = None  # its keeper prepares again, or expired
                if self._holder in (None, me) and self._kept_until is None:
                    self._holder, self._depth = me, self._depth + 1
                    return True
                limit = deadline if self._kept_until is None else min(deadline, self._kept_until)
                if now >= deadline:
                    return False
                self._ready.wait(max(0.0, limit - now))

    def release(self, keep: bool) -> None:
        """Give the turn back; ``keep``: keep it (from the other threads) for up to
        :data:`KEEP_MAX_S`, until :meth:`pass_on`."""
        with self._ready:
            self._depth -= 1
            if self._depth == 0:
                self._holder = None
                if keep:
                    self._kept_until = time.monotonic() + KEEP_MAX_S
                    self._keeper = threading.get_ident()
                self._ready.notify_all()

    def pass_on(self, keeper: int) -> None:
        """Let the others prepare: end the turn kept by the thread ``keeper``."""
        with self._ready:
            if self._kept_until is not None and keeper == self._keeper:
                self._kept_until = self._keeper = None
                self._ready.notify_all()


class _Order:
    """Tickets handed out in the order units start: the holder of ticket ``n`` prepares once
    the holders of the tickets before it have prepared (or ended)."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._issued = 0
        self._done: set[int] = set()
        self._next = 0  # every ticket below this one is done

    def take(self) -> int:
        with self._changed:
            self._issued += 1
            return self._issued - 1

    def wait(self, ticket: int, wait_s: float) -> None:
        """Until every ticket before ``ticket`` is done (at most ``wait_s``)."""
        with self._changed:
            self._changed.wait_for(lambda: self._next >= ticket, wait_s)

    def done(self, ticket: int) -> None:
        with self._changed:
            self._done.add(ticket)
            while self._next in self._done:
                self._done.discard(self._next)
                self._next += 1
            self._changed.notify_all()


_TURN = _Turn()
_ORDER = _Order()
_local = threading.local()


def take_ticket() -> int:
    """A place in the order of preparing, for a unit about to start (take them in the order
    the units start, from one thread)."""
    return _ORDER.take()


@contextlib.contextmanager
def in_order(ticket: int) -> Iterator[None]:
    """Within the block (a unit's thread), this thread prepares only after the holders of the
    earlier tickets have prepared (or ended); its ticket is done when it has prepared once,
    or when the block ends."""
    _local.ticket = ticket
    try:
        yield
    finally:
        _local.ticket = None
        _ORDER.done(ticket)


@contextlib.contextmanager
def preparing(wait_s: float) -> Iterator[bool]:
    """Hold the process's turn while the block reads and prepares data (waiting at most
    ``wait_s`` for it; the block runs either way and is told whether it got the turn). In a
    :func:`kept_until_sending` block the turn is kept afterwards."""
    ticket = getattr(_local, "ticket", None)
    if ticket is not None:
        _ORDER.wait(ticket, min(wait_s, KEEP_MAX_S))  # order is a nicety: never wait long
    turn = _TURN.acquire(wait_s)
    try:
        yield turn
    finally:
        if turn:
            _TURN.release(keep=bool(getattr(_local, "keep", False)))
        if ticket is not None:
            _ORDER.done(ticket)  # the next unit in order may prepare (once the turn is free)


@contextlib.contextmanager
def kept_until_sending() -> Iterator[None]:
    """Within the block, a turn this thread used is kept until it sends (:func:`sending`),
    the block ends, or :data:`KEEP_MAX_S` passes."""
    _local.keep = True
    try:
        yield
    finally:
        _local.keep = False
        _TURN.pass_on(threading.get_ident())


def keeping() -> bool:
    """Whether this thread is in a :func:`kept_until_sending` block."""
    return bool(getattr(_local, "keep", False))


def sending() -> None:
    """Requests are about to go out: a turn kept by this thread passes on."""
    if getattr(_local, "keep", False):
        _TURN.pass_on(threading.get_ident())
