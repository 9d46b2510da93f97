"""The response cache: one JSON file per (model identity, full request) under ``$SEEBENCH_HOME``.

A key is the sha256 of the model's identity, the backend's identity (e.g. the API base URL),
the messages and every generation parameter, so a different model, server, prompt or
temperature never reads another's answer. Each answer is written atomically as soon as it
arrives, so an interrupted run resumes from what it already has; only real replies are stored
(transport failures are retried on the next run). Concurrent writers of one key are safe: each
writes a temporary file of its own and renames it over the entry.

``$SEEBENCH_RESPONSE_CACHE`` names another folder for the replies (``seebench reproduce``
points it at its scratch folder, so a rerun asks the model again instead of reading the
replies the published run stored).
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.home import seebench_home
from seebench.results.io import atomic_write_text

CACHE_VERSION = 1


#: the environment variable naming another folder for the cached replies
RESPONSE_CACHE_VARIABLE = "SEEBENCH_RESPONSE_CACHE"


def responses_dir() -> Path:
    """Where replies are cached: ``$SEEBENCH_RESPONSE_CACHE``, else under the home."""
    chosen = os.environ.get(RESPONSE_CACHE_VARIABLE)
    return Path(chosen) if chosen else seebench_home() / "cache" / "responses"


def cache_key(
    model_identity: dict[str, Any],
    backend_identity: dict[str, Any],
    messages: Any,
    params: dict[str, Any],
) -> str:
    """The sha256 that names one request's cached reply."""
    payload = {
        "version": CACHE_VERSION,
        "model": model_identity,
        "backend": backend_identity,
        "messages": messages,
        "params": params,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str).encode()
    return hashlib.sha256(blob).hexdigest()


class ResponseCache:
    """Get and put replies by key; ``hits`` and ``misses`` count lookups."""

    def __init__(self, root: Path | None = None, enabled: bool = True):
        self.root = Path(root) if root is not None else responses_dir()
        self.enabled = enabled
        self.hits = 0
        self.misses = 0
        self._lock = threading.Lock()  # threads may share one cache (concurrent callers)

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        if self.enabled:
            try:
                entry = json.loads(safe_files.read_text(self.path(key), 256 * 1024 * 1024))
            except (OSError, UnicodeDecodeError, ValueError, RecursionError):
                entry = None
            if isinstance(entry, dict) and "text" in entry:
                with self._lock:
                    self.hits += 1
                return entry
        with self._lock:
            self.misses += 1
        return None

    def put(self, key: str, entry: dict[str, Any]) -> None:
        """Store a reply (scrubbed of every configured secret and URL credential)."""
        if self.enabled:
            from seebench.secrets import scrub

            atomic_write_text(self.path(key), json.dumps(scrub(entry), ensure_ascii=False))
