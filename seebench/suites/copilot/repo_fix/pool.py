"""One lazily opened sandbox pool for the file-level and repository-level analyses of a
scorer, showing the analyzer's tools and the environments' folders (read-only)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class AnalyzerPool:
    """Opens the sandbox on the first run only (cached analyses need none); asking for a
    folder it does not show yet reopens it with the folder added."""

    def __init__(self, workers: int = 1, unsafe_host_exec: bool = False) -> None:
        self.workers, self.unsafe = workers, unsafe_host_exec
        self.mounts: tuple[str, ...] = ()
        self._sandbox: Any = None

    def need(self, mounts: Iterable[str]) -> None:
        """Make sure the pool shows ``mounts``."""
        missing = [m for m in mounts if m not in self.mounts]
        if missing:
            self.close()
            self.mounts = (*self.mounts, *dict.fromkeys(missing))

    def _get(self) -> Any:
        if self._sandbox is None:
            from seebench.sandbox import open_sandbox

            self._sandbox = open_sandbox(
                workers=self.workers, unsafe_host_exec=self.unsafe, extra_mounts=self.mounts
            )
        return self._sandbox

    @property
    def available(self) -> bool:
        return bool(self._get().available)

    @property
    def reason(self) -> str:
        return str(getattr(self._get(), "reason", ""))

    def run_many(self, requests: list[Any]) -> list[Any]:
        return self._get().run_many(requests)

    def close(self) -> None:
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None
