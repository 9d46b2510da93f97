"""A load and crash test of the study server: simulated participants send events while the
server is killed (SIGKILL) and restarted; every acknowledged event must be stored once.

Used by ``benchmarks/study_load.py`` (figures) and the study tests (a short run). The server
runs as ``seebench study serve`` in a child process on 127.0.0.1, with a study of one
no-assistant condition, so no model is needed.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seebench_study.store import SERVER_TAB, read_events

TASKS_CSV = (
    "name,task_description,function_signature,unit_test,solution,type\n"
    'double,Return twice x.,"def double(x):",assert double(2) == 4,"def double(x):\n'
    '    return 2 * x",logic\n'
)


@dataclass
class LoadReport:
    """What the participants sent and what the database holds afterwards."""

    participants: int
    sent: int = 0  # distinct events created by participants
    posts: int = 0  # POST requests, re-sends included
    resent: int = 0  # events sent again after they were acknowledged (idempotency check)
    acked: int = 0
    stored: int = 0
    lost: int = 0  # acknowledged but not in the database
    duplicated: int = 0  # stored more than once, or stored with other content than sent
    unacked: int = 0  # never acknowledged before the deadline (the browser would keep them)
    kills: int = 0
    seconds: float = 0.0  # the whole run: server start, sessions, sending, draining
    send_seconds: float = 0.0  # from the first event to the last acknowledgement
    errors: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [
            f"participants {self.participants}, server kills {self.kills}, {self.seconds:.1f} s",
            f"events sent {self.sent} (posts {self.posts}, re-sent after ack {self.resent})",
            f"acknowledged {self.acked}, stored {self.stored}, lost {self.lost}, "
            f"duplicated {self.duplicated}, never acknowledged {self.unacked}",
        ]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_load_study(folder: Path) -> Path:
    """A study of one no-assistant condition whose task table is put in the data cache."""
    from seebench.data.cache import sha256_file, store_file

    folder.mkdir(parents=True, exist_ok=True)
    table = folder / "load_tasks.csv"
    table.write_text(TASKS_CSV, encoding="utf-8")
    digest = sha256_file(table)
    store_file(table, digest, table.name)
    study = folder / "load.yaml"
    study.write_text(
        "name: load\n"
        f"tasks: {{source: {{sha256: {digest}, format: csv}}}}\n"
        "task_sets: [[double]]\n"
        "conditions: [{id: no_llm, kind: none}]\n",
        encoding="utf-8",
    )
    return study


class Server:
    """``seebench study serve`` in a child process; :meth:`kill` is SIGKILL (a crash)."""

    def __init__(self, study: Path, db: Path, port: int, env: dict[str, str]) -> None:
        self.command = [
            sys.executable,
            "-m",
            "seebench.cli.main",
            "study",
            "serve",
            str(study),
            "--db",
            str(db),
            "--port",
            str(port),
            "--no-warm",
        ]
        self.port = port
        self.env = env
        self.process: subprocess.Popen | None = None

    def start(self, timeout_s: float = 30.0) -> None:
        self.process = subprocess.Popen(
            self.command,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"study server exited: {self.process.stderr.read().decode()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("study server did not start in time")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


class Participant:
    """Creates events with increasing seq and sends them until each is acknowledged."""

    def __init__(self, base: str, rng: random.Random) -> None:
        self.base = base
        self.rng = rng
        self.session = ""
        self.tab = f"load-{rng.getrandbits(64):016x}"  # a browser tab's namespace
        self.events: dict[int, dict[str, Any]] = {}
        self.acked: set[int] = set()
        self.posts = 0
        self.resent = 0

    def make_event(self) -> None:
        seq = len(self.events)
        code = "x = 1\n" * self.rng.randint(0, 40)
        self.events[seq] = {
            "schema": 1,
            "session": self.session,
            "tab": self.tab,
            "seq": seq,
            "type": "snapshot",
            "task": "double",
            "client_time": int(time.time() * 1000),
            "data": {"code": code},
        }

    async def post(self, client: Any, path: str, body: dict) -> dict | None:
        try:
            # a browser's fetch waits as long as the server takes; a long timeout mirrors it
            response = await client.post(self.base + path, json=body, timeout=60.0)
        except Exception:  # the server is down or restarting: try again later
            return None
        return response.json() if response.status_code == 200 else None

    async def open(self, client: Any) -> None:
        """Get a session and consent (the study has no survey): the participant is at its
        task, where the server takes telemetry."""
        while not self.session:
            reply = await self.post(
                client, "/api/session", {"participant": self.tab, "tab": self.tab}
            )
            if reply:
                self.session = reply["session"]
            else:
                await asyncio.sleep(0.1)
        consent = {"tab": self.tab, "accepted": True}
        while not await self.post(client, f"/api/session/{self.session}/consent", consent):
            reply = await self.post(
                client, "/api/session", {"participant": self.tab, "tab": self.tab}
            )
            if reply and reply["progress"]["phase"] == "task":
                return  # it had consented before a server kill lost the answer to it
            await asyncio.sleep(0.1)

    async def send_pending(self, client: Any) -> None:
        pending = [e for s, e in self.events.items() if s not in self.acked][:50]
        if self.acked and self.posts % 5 == 1:  # a retry of something already stored
            pending.append(self.events[self.rng.choice(sorted(self.acked))])
            self.resent += 1
        if not pending:
            return
        self.posts += 1
        reply = await self.post(client, "/api/events", {"session": self.session, "events": pending})
        if reply:
            if reply["rejected"]:
                raise RuntimeError(f"events rejected: {reply['rejected'][:1]}")
            self.acked.update(reply["acked"])

    async def run(self, client: Any, until: float, interval_s: float) -> None:
        while time.monotonic() < until:
            for _ in range(self.rng.randint(1, 3)):
                self.make_event()
            await self.send_pending(client)
            await asyncio.sleep(interval_s * self.rng.uniform(0.5, 1.5))

    async def drain(self, client: Any, until: float) -> None:
        while len(self.acked) < len(self.events) and time.monotonic() < until:
            await self.send_pending(client)
            if len(self.acked) < len(self.events):
                await asyncio.sleep(0.1)


async def _simulate(
    participants: list[Participant],
    server: Server,
    seconds: float,
    kill_at: list[float],
    interval_s: float,
    drain_s: float,
) -> tuple[int, float]:
    """Run the participants (killing the server at ``kill_at`` seconds); returns the number
    of kills and the seconds from the first event to the last acknowledgement."""
    import httpx

    limits = httpx.Limits(max_connections=len(participants))
    async with httpx.AsyncClient(limits=limits) as client:
        await asyncio.gather(*(p.open(client) for p in participants))
        start = time.monotonic()  # the clock runs once every participant has a session
        tasks = [
            asyncio.create_task(p.run(client, start + seconds, interval_s)) for p in participants
        ]
        kills = 0
        for moment in kill_at:
            await asyncio.sleep(max(0.0, start + moment - time.monotonic()))
            server.kill()
            kills += 1
            await asyncio.sleep(0.3)
            await asyncio.to_thread(server.start)
        await asyncio.gather(*tasks)
        until = time.monotonic() + drain_s
        await asyncio.gather(*(p.drain(client, until) for p in participants))
    return kills, time.monotonic() - start


def check_database(db: Path, participants: list[Participant], report: LoadReport) -> None:
    """Count stored, lost and duplicated events against what the participants sent."""
    seen: dict[tuple[str, str, int], int] = {}
    stored: dict[tuple[str, str, int], dict[str, Any]] = {}
    for event in read_events(db):  # the store numbers events itself: match the tab's seq
        if event["tab"] == SERVER_TAB:
            continue  # the protocol's own steps (session started, consent, task loaded)
        key = (event["session"], event["tab"], event["tab_seq"])
        seen[key] = seen.get(key, 0) + 1
        stored[key] = event
    report.stored = len(seen)
    report.duplicated = sum(n - 1 for n in seen.values())
    for participant in participants:
        for seq, sent in participant.events.items():
            key = (participant.session, participant.tab, seq)
            if seq in participant.acked and key not in stored:
                report.lost += 1
            elif key in stored:
                got = stored[key]
                if (got["type"], got["data"], got["client_time"]) != (
                    sent["type"],
                    sent["data"],
                    sent["client_time"],
                ):
                    report.duplicated += 1
                    report.errors.append(f"{key}: stored content differs from sent")
    known = {(p.session, p.tab, s) for p in participants for s in p.events}
    phantoms = set(stored) - known
    if phantoms:
        report.duplicated += len(phantoms)
        report.errors.append(f"{len(phantoms)} stored events were never sent")


def run_load(
    folder: Path,
    *,
    participants: int = 50,
    seconds: float = 10.0,
    kills: int = 1,
    interval_s: float = 0.2,
    drain_s: float = 30.0,
    seed: int = 0,
    env: dict[str, str] | None = None,
) -> LoadReport:
    """Run the load test in ``folder`` (study, database); returns the counts."""
    study = write_load_study(folder)
    db = folder / "load.sqlite"
    port = free_port()
    server = Server(study, db, port, {**os.environ, **(env or {})})
    rng = random.Random(seed)
    people = [
        Participant(f"http://127.0.0.1:{port}", random.Random(rng.random()))
        for _ in range(participants)
    ]
    kill_at = [seconds * (i + 1) / (kills + 1) for i in range(kills)]
    report = LoadReport(participants)
    server.start()
    started = time.monotonic()
    try:
        report.kills, report.send_seconds = asyncio.run(
            _simulate(people, server, seconds, kill_at, interval_s, drain_s)
        )
    finally:
        server.stop()
    report.seconds = time.monotonic() - started
    report.sent = sum(len(p.events) for p in people)
    report.posts = sum(p.posts for p in people)
    report.resent = sum(p.resent for p in people)
    report.acked = sum(len(p.acked) for p in people)
    report.unacked = report.sent - report.acked
    check_database(db, people, report)
    return report


class StandInChatModel:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that answers every request after
    ``delay_s`` seconds, many at once (a stand-in for a slow model)."""

    def __init__(self, delay_s: float) -> None:
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        delay = delay_s

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                time.sleep(delay)
                reply = {
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]
                }
                data = json.dumps(reply).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> StandInChatModel:
        import threading

        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def chat_latency(folder: Path, *, parallel: int = 4, delay_s: float = 3.0) -> list[float]:
    """Seconds each of ``parallel`` chat messages sent at once took through ``seebench study
    serve`` with a stand-in model that takes ``delay_s`` per reply (sorted)."""
    import httpx

    study = write_load_study(folder)
    with StandInChatModel(delay_s) as model:
        text = study.read_text(encoding="utf-8").replace(
            "conditions: [{id: no_llm, kind: none}]",
            "conditions: [{id: chat, kind: chat, model: 'openai:stand-in', options: "
            f"{{base_url: '{model.base_url}', api_key_env: STUDY_LOAD_KEY, max_retries: 0}}}}]",
        )
        study.write_text(text, encoding="utf-8")
        port = free_port()
        env = {**os.environ, "STUDY_LOAD_KEY": "stand-in-key-0000"}
        server = Server(study, folder / "chat.sqlite", port, env)
        server.start()
        try:
            base = f"http://127.0.0.1:{port}"
            tab = {"tab": "latency"}
            session = httpx.post(f"{base}/api/session", json=tab, timeout=30).json()["session"]
            consent = {**tab, "accepted": True}
            httpx.post(f"{base}/api/session/{session}/consent", json=consent, timeout=30)

            async def one(client: Any) -> float:
                started = time.perf_counter()
                body = {"session": session, **tab, "message": "hi", "message_id": "m-1"}
                response = await client.post(f"{base}/api/chat", json=body, timeout=120)
                response.raise_for_status()
                return time.perf_counter() - started

            async def all_at_once() -> list[float]:
                async with httpx.AsyncClient() as client:
                    await one(client)  # a warm-up, as serve's --warm does (imports, client)
                    return list(await asyncio.gather(*(one(client) for _ in range(parallel))))

            return sorted(asyncio.run(all_at_once()))
        finally:
            server.stop()


def direct_store_rate(folder: Path, events: int = 2000, batch: int = 3) -> float:
    """Events per second stored by :class:`StudyStore` directly (the reference: no HTTP)."""
    from seebench_study.store import StudyStore

    store = StudyStore(folder / "direct.sqlite")
    store.create_session(
        {
            "session": "s-00000000-0000-0000-0000-000000000000",
            "study": "load",
            "participant": "",
            "condition": "c",
            "kind": "none",
            "model": None,
            "task_set": 0,
            "started": 0,
        }
    )
    rng = random.Random(0)
    made = [
        {
            "schema": 1,
            "session": "s-00000000-0000-0000-0000-000000000000",
            "seq": i,
            "type": "snapshot",
            "task": "double",
            "client_time": i,
            "data": {"code": "x = 1\n" * rng.randint(0, 40)},
        }
        for i in range(events)
    ]
    started = time.perf_counter()
    for i in range(0, events, batch):
        store.add_events(made[i : i + batch])
    elapsed = time.perf_counter() - started
    store.close()
    return events / elapsed


def report_json(report: LoadReport) -> str:
    return json.dumps({k: v for k, v in vars(report).items()}, indent=1)
