"""Which failures are worth another attempt, and how long to wait before it.

A *transient* failure is one the same unit may not meet again: a worker process or node lost,
a server that did not answer, memory exhausted. A *deterministic* one (bad data, a bug, a
wrong option) fails the same way every time and is never retried.
"""

from __future__ import annotations

import random

#: Exception class names (anywhere in the class hierarchy or the cause chain) that mark a
#: transient failure, for libraries seebench does not import: torch, httpx, aiohttp, openai, Ray.
TRANSIENT_NAMES = frozenset(
    {
        "OutOfMemoryError",  # torch.cuda and ray.exceptions
        "ConnectError",
        "ConnectTimeout",
        "ReadTimeout",
        "WriteTimeout",
        "PoolTimeout",
        "RemoteProtocolError",
        "ClientConnectionError",  # aiohttp (the request loop): refused, reset, disconnected
        "ClientPayloadError",
        "APIConnectionError",
        "APITimeoutError",
        "RateLimitError",
        "InternalServerError",
        "ServiceUnavailableError",
        "WorkerCrashedError",
        "NodeDiedError",
        "ObjectLostError",
        "OwnerDiedError",
        "RaySystemError",
        "LocalRayletDiedError",
        "ActorDiedError",
        "ActorUnavailableError",
        "BrokenProcessPool",
        "TransientError",
    }
)


class TransientError(Exception):
    """Raise (or chain from) this in a method or scorer to say "try this unit again later"."""


def is_transient(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it was raised from) is a transient failure."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, ConnectionError | TimeoutError | MemoryError | TransientError):
            return True
        if any(klass.__name__ in TRANSIENT_NAMES for klass in type(current).__mro__):
            return True
        current = current.__cause__ or current.__context__
    return False


def backoff_seconds(
    attempt: int, base: float = 2.0, cap: float = 60.0, jitter: float = 0.25
) -> float:
    """Seconds to wait before attempt ``attempt + 1`` after ``attempt`` failed (1-based):
    ``base * 2**(attempt-1)``, at most ``cap``, with +-``jitter`` relative noise so that many
    units failing together do not come back together."""
    delay = min(cap, base * 2 ** max(0, attempt - 1))
    return max(0.0, delay * (1 + random.uniform(-jitter, jitter)))
