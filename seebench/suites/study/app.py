"""The study web app (Starlette): the participant pages, the JSON API and the admin page.

Participants get a session on their first visit (balanced random assignment to a condition
and a task set); model calls and code runs happen here on the server. Events are stored and
acknowledged only once committed (:mod:`seebench.suites.study.store`).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import random
import secrets
import uuid
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from seebench.errors import SeebenchError
from seebench.suites.study.admin import admin_page
from seebench.suites.study.assistant import Assistant
from seebench.suites.study.definition import Study, balanced_pick
from seebench.suites.study.execute import CodeRunner
from seebench.suites.study.store import StudyStore, now_ms, read_events
from seebench.suites.study.telemetry import event_problem

MAX_BODY_BYTES = 4 << 20
MAX_EVENTS_PER_POST = 200


def static_dir() -> Path:
    return Path(str(resources.files("seebench.suites.study") / "static"))


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class StudyApp:
    """The state behind the routes: study, store, assistants per condition, code runner."""

    def __init__(
        self,
        study: Study,
        store: StudyStore,
        admin_token: str,
        *,
        unsafe_host_exec: bool = False,
        seed: int | None = None,
    ) -> None:
        self.study = study
        self.store = store
        self.admin_token = admin_token
        self.rng = random.Random(seed)
        self.assistants = {
            c.id: Assistant(c) for c in study.conditions if c.kind in ("autocomplete", "chat")
        }
        self.runner = CodeRunner(study.run_limits, unsafe_host_exec=unsafe_host_exec)

    # -- helpers ----------------------------------------------------------------------------

    async def body(self, request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            raise ApiError(413, "request too large")
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            raise ApiError(400, "the request body is not JSON") from None
        if not isinstance(body, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return body

    def session_of(self, session_id: Any) -> dict[str, Any]:
        row = self.store.session(session_id) if isinstance(session_id, str) else None
        if row is None:
            raise ApiError(404, f"no session {session_id!r}")
        return row

    def session_view(self, row: dict[str, Any]) -> dict[str, Any]:
        """What the browser needs for a session: never tests, model options or keys."""
        study = self.study
        return {
            "session": row["session"],
            "title": study.title,
            "instructions": study.instructions,
            "consent": study.consent,
            "condition": row["condition"],
            "kind": row["kind"],
            "task_set": row["task_set"],
            "tasks": [t.public() for t in study.task_list(row["task_set"])],
            "session_s": study.session_s,
            "skip_after_s": study.skip_after_s,
            "snapshot_s": study.snapshot_s,
            "suggestion": {"pause_ms": study.pause_ms},
            "surveys": study.surveys,
            "next_seq": self.store.next_seq(row["session"]),
            "finished": row["finished"] is not None,
        }

    # -- participant API --------------------------------------------------------------------

    async def new_session(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        participant = str(body.get("participant") or "")[:100]
        study = self.study
        used = self.store.counts("condition")
        condition = study.condition(
            balanced_pick({c.id: used.get(c.id, 0) for c in study.conditions}, self.rng)
        )
        sets = self.store.counts("task_set")
        task_set = balanced_pick({i: sets.get(i, 0) for i in range(len(study.task_sets))}, self.rng)
        row = {
            "session": f"s-{uuid.uuid4()}",
            "study": study.name,
            "participant": participant,
            "condition": condition.id,
            "kind": condition.kind,
            "model": condition.model,
            "task_set": task_set,
            "started": now_ms(),
        }
        self.store.create_session(row)
        return self.session_view({**row, "finished": None})

    async def get_session(self, request: Request) -> dict[str, Any]:
        return self.session_view(self.session_of(request.path_params["session"]))

    async def finish(self, request: Request) -> dict[str, Any]:
        row = self.session_of(request.path_params["session"])
        code = await run_in_threadpool(
            self.store.finish_session, row["session"], secrets.token_hex(4).upper()
        )
        return {"end_code": code}

    async def events(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        row = self.session_of(body.get("session"))
        events = body.get("events")
        if not isinstance(events, list) or len(events) > MAX_EVENTS_PER_POST:
            raise ApiError(400, f"events must be a list of at most {MAX_EVENTS_PER_POST}")
        return await run_in_threadpool(self.accept_events, row["session"], events)

    def accept_events(self, session: str, events: list[Any]) -> dict[str, Any]:
        """Validate each event, store the valid ones in one transaction, and say which seqs
        are acknowledged (stored now or before) and which are rejected, with the reason."""
        valid, rejected = [], []
        for event in events:
            problem = event_problem(event)
            if problem is None and event["session"] != session:
                problem = "session: does not match the request's session"
            if problem is None:
                valid.append(event)
            else:
                seq = event.get("seq") if isinstance(event, dict) else None
                rejected.append({"seq": seq, "error": problem})
        stored = self.store.add_events(valid) if valid else 0
        return {"acked": [e["seq"] for e in valid], "stored": stored, "rejected": rejected}

    def assistant_for(self, row: dict[str, Any], kind: str) -> Assistant:
        if row["kind"] != kind or row["condition"] not in self.assistants:
            raise ApiError(403, f"this session's condition has no {kind}")
        return self.assistants[row["condition"]]

    async def suggest(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        row = self.session_of(body.get("session"))
        assistant = self.assistant_for(row, "autocomplete")
        prefix, suffix = str(body.get("prefix", "")), str(body.get("suffix", ""))
        max_tokens = self.study.max_tokens.draw(self.rng)
        temperature = self.study.suggestion_temperature
        try:
            text = await run_in_threadpool(
                assistant.suggest, prefix, suffix, max_tokens, temperature
            )
        except SeebenchError as exc:
            raise ApiError(502, str(exc)) from None
        return {"suggestion": text, "max_tokens": max_tokens}

    async def chat(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        row = self.session_of(body.get("session"))
        assistant = self.assistant_for(row, "chat")
        history = body.get("messages")
        if not isinstance(history, list) or not all(
            isinstance(m, dict)
            and m.get("role") in ("user", "assistant")
            and isinstance(m.get("content"), str)
            for m in history
        ):
            raise ApiError(400, "messages must be a list of {role: user|assistant, content}")
        history = [{"role": m["role"], "content": m["content"]} for m in history]
        study = self.study
        try:
            text = await run_in_threadpool(
                assistant.reply, history, study.chat_max_tokens, study.chat_temperature
            )
        except SeebenchError as exc:
            raise ApiError(502, str(exc)) from None
        return {"text": text}

    async def execute(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        row = self.session_of(body.get("session"))
        names = self.study.task_sets[row["task_set"]]
        task_name, mode, code = body.get("task"), body.get("mode"), body.get("code")
        if task_name not in names:
            raise ApiError(400, f"task {task_name!r} is not in this session's task set")
        if mode not in ("run", "submit") or not isinstance(code, str):
            raise ApiError(400, "mode must be run or submit, and code a string")
        outcome = await run_in_threadpool(
            self.runner.execute, self.study.tasks[task_name], code, mode
        )
        return {"passed": outcome.passed, "output": outcome.output}

    # -- admin --------------------------------------------------------------------------------

    def check_token(self, request: Request) -> None:
        given = request.query_params.get("token") or request.headers.get(
            "authorization", ""
        ).removeprefix("Bearer ")
        if not hmac.compare_digest(given.encode(), self.admin_token.encode()):
            raise ApiError(403, "admin token missing or wrong")

    async def admin(self, request: Request) -> HTMLResponse:
        self.check_token(request)
        progress = await run_in_threadpool(self.store.progress)
        return HTMLResponse(admin_page(self.study, progress, self.admin_token))

    async def export(self, request: Request) -> StreamingResponse:
        self.check_token(request)

        def lines():
            for event in read_events(self.store.path):
                yield json.dumps(event, ensure_ascii=False) + "\n"

        return StreamingResponse(
            lines(),
            media_type="application/x-ndjson",
            headers={
                "Content-Disposition": f'attachment; filename="{self.study.name}-events.jsonl"'
            },
        )


def _json_route(handler):
    async def endpoint(request: Request):
        try:
            return JSONResponse(await handler(request))
        except ApiError as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)

    return endpoint


def _page_route(handler):
    async def endpoint(request: Request):
        try:
            return await handler(request)
        except ApiError as exc:
            return HTMLResponse(f"<p>{exc}</p>", status_code=exc.status)

    return endpoint


def create_app(state: StudyApp) -> Starlette:
    """The ASGI app for one study."""
    index = static_dir() / "index.html"

    async def home(request: Request) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", home),
        Route("/api/session", _json_route(state.new_session), methods=["POST"]),
        Route("/api/session/{session}", _json_route(state.get_session)),
        Route("/api/session/{session}/finish", _json_route(state.finish), methods=["POST"]),
        Route("/api/events", _json_route(state.events), methods=["POST"]),
        Route("/api/suggest", _json_route(state.suggest), methods=["POST"]),
        Route("/api/chat", _json_route(state.chat), methods=["POST"]),
        Route("/api/execute", _json_route(state.execute), methods=["POST"]),
        Route("/admin", _page_route(state.admin)),
        Route("/admin/events.jsonl", _page_route(state.export)),
        Mount("/static", StaticFiles(directory=static_dir()), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        yield
        state.runner.close()
        state.store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.study = state
    return app
