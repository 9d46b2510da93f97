"""Starting, watching and stopping one managed model server.

:func:`get_server` starts a server the first time a (model, server options) pair is needed and
hands the same running server to every later caller in the process; :func:`release` stops one
and forgets it; :func:`stop_all` stops them all (it runs at interpreter exit, after Ctrl-C and after errors). Each server listens on
127.0.0.1 on a free port with a random API key (registered as a secret, so it is scrubbed
from everything seebench writes), under :mod:`~seebench.models.servers.supervise`, which stops
it when seebench is gone even after ``kill -9``. Its output goes to a log file under
``$SEEBENCH_HOME/logs/servers/``; errors quote its last lines.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from seebench import safe_files
from seebench.data.cache import seebench_home
from seebench.errors import ModelError
from seebench.models import ModelRef
from seebench.models.servers.kinds import ServerKind, server_kind
from seebench.models.servers.options import SERVER_OPTIONS
from seebench.secrets import register_secret, scrub

SUPERVISOR = Path(__file__).with_name("supervise.py")
STOP_GRACE_S = 10.0
LOG_LINES = 6
PORT_ATTEMPTS = 3
RESUME_HINT = "finished units and cached replies are kept: rerun to resume"


class ServerError(ModelError):
    """A managed server could not start, or died: one line with its last log lines."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ManagedServer:
    """One server process (under its supervisor) for one model and one set of server options."""

    def __init__(self, kind: ServerKind, model: ModelRef, options: dict[str, Any]):
        self.kind = kind
        self.model = model
        self.options = dict(options)
        self.port = 0
        self.api_key = ""
        self.process: subprocess.Popen | None = None
        self.log_path: Path | None = None
        self.server_pid: int | None = None
        self.started_s: float | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def startup_timeout_s(self) -> float:
        return float(self.options.get("startup_timeout_s", self.kind.default_startup_timeout_s))

    def start(self) -> None:
        """Start the server and wait until ``/v1/models`` answers; :class:`ServerError` if not."""
        self.port = free_port()
        self.api_key = secrets.token_urlsafe(24)
        register_secret(self.api_key)
        argv = self.kind.command(self.model, self.port, self.options)
        argv += self.kind.key_args(self.api_key)
        logs = seebench_home() / "logs" / "servers"
        logs.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        self.log_path = logs / f"{self.model.id}-{stamp}-{os.getpid()}-{self.port}.log"
        pid_file = self.log_path.with_suffix(".pid")
        env = {**os.environ, **self.kind.key_env(self.api_key), "PYTHONUNBUFFERED": "1"}
        started = time.monotonic()
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-I", str(SUPERVISOR), str(STOP_GRACE_S), str(pid_file), "--"]
                + argv,
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,  # Ctrl-C in the terminal reaches seebench, not the server
            )
        try:
            self._wait_ready(pid_file)
        except BaseException:
            self.stop()
            raise
        self.started_s = time.monotonic() - started

    def _wait_ready(self, pid_file: Path) -> None:
        import httpx

        deadline = time.monotonic() + self.startup_timeout_s
        headers = {"Authorization": f"Bearer {self.api_key}"}
        delay = 0.1
        with httpx.Client(headers=headers, timeout=5.0) as client:
            while True:
                if self.server_pid is None and pid_file.is_file():
                    with contextlib.suppress(OSError, ValueError):
                        self.server_pid = int(safe_files.read_text(pid_file, 64))
                if not self.alive():
                    raise ServerError(self.died_message("while loading"))
                try:
                    response = client.get(f"{self.base_url}/models")
                    if response.status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise ServerError(
                        f"model {self.model.spec!r}: the {self.kind.label} server did not answer "
                        f"/v1/models within {self.startup_timeout_s:g} s "
                        f"(-o startup_timeout_s=SECONDS waits longer); last log lines: "
                        f"{self.log_tail()}; full log: {self.log_path}"
                    )
                time.sleep(delay)
                delay = min(1.0, delay * 1.5)

    def alive(self, wait_s: float = 0.0) -> bool:
        """Whether the server (its supervisor) still runs; with ``wait_s``, whether it still
        runs after waiting that long for it to exit (to confirm a suspected death)."""
        if self.process is None:
            return False
        if wait_s <= 0:
            return self.process.poll() is None
        try:
            self.process.wait(timeout=wait_s)
        except subprocess.TimeoutExpired:
            return True
        return False

    def exit_code(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def died_message(self, when: str) -> str:
        """The one-line error for a server that exited ``when`` (``while loading``, ``mid-run``)."""
        hint = f"; {RESUME_HINT}" if when == "mid-run" else ""
        return (
            f"model {self.model.spec!r}: the {self.kind.label} server exited {when} "
            f"(exit code {self.exit_code()}); last log lines: {self.log_tail()}; "
            f"full log: {self.log_path}{hint}"
        )

    def log_tail(self, lines: int = LOG_LINES) -> str:
        """The log's last non-empty lines on one line (`` | ``-separated), secrets scrubbed."""
        if self.log_path is None:
            return "(no log)"
        try:
            with open(self.log_path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - 16384))
                text = handle.read().decode("utf-8", "replace")
        except OSError:
            return "(log unreadable)"
        kept = [line.strip() for line in text.splitlines() if line.strip()][-lines:]
        return scrub(" | ".join(kept)) or "(empty log)"

    def stop(self) -> None:
        """Stop the server's whole process group (SIGTERM, SIGKILL after a grace period)."""
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)  # the supervisor stops the server's group
            try:
                process.wait(timeout=STOP_GRACE_S + 5)
            except subprocess.TimeoutExpired:
                for pgid in (process.pid, self.server_pid):
                    if pgid:
                        with contextlib.suppress(ProcessLookupError, PermissionError):
                            os.killpg(pgid, signal.SIGKILL)
                process.wait()
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()

    def summary(self) -> dict[str, Any]:
        """What a result's ``info.server`` says (no port, no key)."""
        return {
            "server": self.kind.name,
            "version": self.model.identity.get("server_version"),
            "options": {k: v for k, v in sorted(self.options.items())},
            "startup_s": None if self.started_s is None else round(self.started_s, 2),
            "log": str(self.log_path) if self.log_path else None,
        }


_servers: dict[tuple[Any, ...], ManagedServer] = {}
_lock = threading.Lock()


def server_options_of(kind: ServerKind, options: dict[str, Any]) -> dict[str, Any]:
    """The options among ``options`` that change how ``kind``'s server starts."""
    return {k: options[k] for k in kind.server_options if k in options and k in SERVER_OPTIONS}


def get_server(model: ModelRef, options: dict[str, Any]) -> ManagedServer:
    """The running server of ``model`` with these server options, started on first use."""
    kind = server_kind(model.options["serve"])
    startup = server_options_of(kind, options)
    key = (model.spec, tuple(sorted((k, str(v)) for k, v in startup.items())))
    with _lock:
        server = _servers.get(key)
        if server is not None and server.alive():
            return server
        if server is not None:  # it died: the caller reports it, a new run starts a new one
            raise ServerError(server.died_message("mid-run"))
        for attempt in range(PORT_ATTEMPTS):
            server = ManagedServer(kind, model, startup)
            try:
                server.start()
                break
            except ServerError:
                # another program took the free port between the probe and the server's bind
                taken = "address already in use" in server.log_tail(LOG_LINES * 4).lower()
                if not taken or attempt == PORT_ATTEMPTS - 1:
                    raise
        assert server is not None  # started: a last failed attempt raised
        _servers[key] = server
        return server


def release(server: ManagedServer) -> None:
    """Stop ``server`` and forget it, so that the next :func:`get_server` for its model and
    options starts a new one (a long-lived caller, such as the study app, restarts a server
    that died, and stops its own at shutdown without touching the others)."""
    with _lock:
        for key, known in list(_servers.items()):
            if known is server:
                del _servers[key]
    server.stop()


def running_servers() -> list[ManagedServer]:
    """The servers this process has started and not stopped."""
    with _lock:
        return [s for s in _servers.values() if s.alive()]


def stop_all() -> None:
    """Stop every server this process started (at exit, after Ctrl-C, after an error)."""
    with _lock:
        servers = list(_servers.values())
        _servers.clear()
    for server in servers:
        server.stop()


atexit.register(stop_all)
