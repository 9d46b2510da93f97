"""The study web app (Starlette): the participant pages, the JSON API and the admin page.

Participants get a session on their first visit (balanced random assignment to a condition
and a task set); model calls and code runs happen here on the server. Events are stored and
acknowledged only once committed (:mod:`seebench_study.store`).

The server is the only witness of what it did: Run and Submit verdicts and model failures are
stored as the server's own events, a browser's ``run``/``submit`` claim is rejected, and a
``task_finished`` with outcome ``passed`` is accepted only after a passing Submit of that task.
Request bodies are read as a bounded stream (413 past :data:`MAX_BODY_BYTES`), every malformed
body gets 400 with a reason, and every response is scrubbed of secrets.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import random
import time
import uuid
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from seebench.secrets import register_secret, scrub
from seebench_study.admin import admin_page
from seebench_study.assistant import Assistant
from seebench_study.definition import Study, balanced_pick
from seebench_study.execute import CodeRunner
from seebench_study.protocol import ApiError, Protocol
from seebench_study.store import SERVER_TAB, StudyStore, read_events
from seebench_study.telemetry import SERVER_TYPES, event_problem

MAX_BODY_BYTES = 4 << 20
MAX_EVENTS_PER_POST = 200
MAX_CHAT_CHARS = 20_000
#: What a participant reads when the model fails (never the model's name or the error).
UNAVAILABLE = "The assistant is not available right now. Please continue without it."
log = logging.getLogger("seebench.study")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def static_dir() -> Path:
    return Path(str(resources.files("seebench_study") / "static"))


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
        runner: Any = None,
    ) -> None:
        self.study = study
        self.store = store
        self.clock = store.clock
        self.protocol = Protocol(study, store, store.clock)
        self.admin_token = admin_token
        self.rng = random.Random(seed)
        self.assistants = {
            c.id: Assistant(c) for c in study.conditions if c.kind in ("autocomplete", "chat")
        }
        for condition in study.conditions:  # their keys are never sent, even by mistake
            if condition.model:
                key_env = str(condition.options.get("api_key_env") or "OPENAI_API_KEY")
                register_secret(os.environ.get(key_env))
        self.runner = runner or CodeRunner(
            study.run_limits, workers=study.run_workers, unsafe_host_exec=unsafe_host_exec
        )

    def close_models(self) -> None:
        """Stop the managed model servers the conditions started (at shutdown)."""
        for assistant in self.assistants.values():
            assistant.close()

    # -- helpers ----------------------------------------------------------------------------

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object, read as a stream of at most :data:`MAX_BODY_BYTES`."""
        declared = request.headers.get("content-length")
        if declared is not None:
            if not declared.isdigit():
                raise ApiError(400, "Content-Length is not a number")
            if int(declared) > MAX_BODY_BYTES:
                raise ApiError(413, f"request body over {MAX_BODY_BYTES} bytes")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise ApiError(413, f"request body over {MAX_BODY_BYTES} bytes")
            chunks.append(chunk)
        raw = b"".join(chunks)
        try:
            body = json.loads(raw.decode("utf-8") or "{}", parse_constant=_no_constant)
            json.dumps(body, ensure_ascii=False).encode("utf-8")  # no lone surrogates
        except UnicodeError:
            raise ApiError(400, "the request body is not valid UTF-8 text") from None
        except RecursionError:
            raise ApiError(400, "the request body is nested too deeply") from None
        except ValueError as exc:
            raise ApiError(400, f"the request body is not JSON ({exc})") from None
        if not isinstance(body, dict):
            raise ApiError(400, "the request body must be a JSON object")
        return body

    def session_of(self, session_id: Any) -> dict[str, Any]:
        row = self.store.session(session_id) if isinstance(session_id, str) else None
        if row is None:
            raise ApiError(404, f"no session {session_id!r}")
        return row

    def session_view(
        self, row: dict[str, Any], state: dict[str, Any], tab: str | None = None
    ) -> dict[str, Any]:
        """What the browser needs for a session: never tests, model options or keys."""
        study = self.study
        return {
            "session": row["session"],
            "title": study.title,
            "instructions": study.instructions_for(row["kind"]),
            "consent": study.consent,
            "condition": row["condition"],
            "kind": row["kind"],
            "task_set": row["task_set"],
            "tasks": [t.public() for t in study.task_list(row["task_set"])],
            "session_s": study.session_s,
            "skip_after_s": study.skip_after_s,
            "snapshot_s": study.snapshot_s,
            "suggestion": {"pause_ms": study.pause_ms},
            "tutorial": study.tutorial,
            "completion_url": study.completion_url,
            "finished": state["end_code"] is not None,
            "progress": self.protocol.view(row, state, tab),
        }

    def progress_reply(self, row: dict[str, Any], state: dict[str, Any], tab: Any) -> dict:
        return {"progress": self.protocol.view(row, state, tab if isinstance(tab, str) else None)}

    # -- participant API --------------------------------------------------------------------

    async def new_session(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        participant = body.get("participant") or ""
        if not isinstance(participant, str) or len(participant) > 100:
            raise ApiError(400, "participant must be a string of at most 100 characters")
        tab = _tab(body.get("tab"), required=False)
        study = self.study
        if participant:  # one participant code, one session, whatever the browser
            existing = self.store.session_by_participant(study.name, participant)
            if existing is not None:
                state = await self._open(existing, tab)
                return {**self.session_view(existing, state, tab), "resumed": True}
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
            "started": self.clock(),
        }
        self.store.create_session(row)
        agent = request.headers.get("user-agent", "")
        await run_in_threadpool(self.protocol.begin, row, agent)
        state = await self._open(row, tab)
        return {**self.session_view(row, state, tab), "resumed": False}

    async def _open(self, row: dict[str, Any], tab: str | None) -> dict[str, Any]:
        if tab is None:
            return await run_in_threadpool(self.protocol.state, row)
        return await run_in_threadpool(self.protocol.claim, row, tab, False)

    async def get_session(self, request: Request) -> dict[str, Any]:
        """The session and the participant's place; a ``tab`` given takes the session when
        no other live tab holds it (and tells the active tab it is still alive)."""
        row = self.session_of(request.path_params["session"])
        tab = _tab(request.query_params.get("tab"), required=False)
        state = await self._open(row, tab)
        return self.session_view(row, state, tab)

    async def claim(self, request: Request) -> dict[str, Any]:
        """The participant chose to continue in this tab: it takes the session over."""
        row, body = await self._row_and_body(request)
        tab = _tab(body.get("tab"))
        state = await run_in_threadpool(self.protocol.claim, row, tab, True)
        return self.progress_reply(row, state, tab)

    async def _row_and_body(self, request: Request) -> tuple[dict[str, Any], dict[str, Any]]:
        body = await self.body(request)
        return self.session_of(request.path_params["session"]), body

    async def consent(self, request: Request) -> dict[str, Any]:
        row, body = await self._row_and_body(request)
        state = await run_in_threadpool(
            self.protocol.consent, row, body.get("tab"), body.get("accepted")
        )
        return self.progress_reply(row, state, body.get("tab"))

    async def survey(self, request: Request) -> dict[str, Any]:
        row, body = await self._row_and_body(request)
        state = await run_in_threadpool(
            self.protocol.survey, row, body.get("tab"), body.get("survey"), body.get("answers")
        )
        return self.progress_reply(row, state, body.get("tab"))

    async def save_code(self, request: Request) -> dict[str, Any]:
        row, body = await self._row_and_body(request)
        await run_in_threadpool(
            self.protocol.save_code, row, body.get("tab"), body.get("task"), body.get("code")
        )
        return {"saved": True}

    async def skip(self, request: Request) -> dict[str, Any]:
        row, body = await self._row_and_body(request)
        state = await run_in_threadpool(self.protocol.skip, row, body.get("tab"), body.get("task"))
        return self.progress_reply(row, state, body.get("tab"))

    async def finish(self, request: Request) -> dict[str, Any]:
        row = self.session_of(request.path_params["session"])
        return {"end_code": await run_in_threadpool(self.protocol.end_code, row)}

    async def events(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        row = self.session_of(body.get("session"))
        events = body.get("events")
        if not isinstance(events, list) or len(events) > MAX_EVENTS_PER_POST:
            raise ApiError(400, f"events must be a list of at most {MAX_EVENTS_PER_POST}")
        phase = (await run_in_threadpool(self.protocol.state, row))["phase"]
        if phase in ("consent", "declined", "screened_out"):
            raise ApiError(403, f"no events are taken from a session at {phase}")
        return await run_in_threadpool(self.accept_events, row, events)

    def accept_events(self, row: dict[str, Any], events: list[Any]) -> dict[str, Any]:
        """Validate each event, store the valid ones in one transaction, and say which seqs
        are acknowledged (stored now or before) and which are rejected, with the reason.

        The protocol's steps, Run/Submit verdicts and model errors are the server's to record
        (tab ``server``): a browser's claim of them, or an event under that tab, is rejected.
        """
        session = row["session"]
        valid, rejected = [], []
        for event in events:
            problem = event_problem(event)
            if problem is None and event["session"] != session:
                problem = "session: does not match the request's session"
            if problem is None and event.get("tab") == SERVER_TAB:
                problem = f"tab: {SERVER_TAB!r} is the server's own"
            if problem is None and event["type"] in SERVER_TYPES:
                problem = f"type: {event['type']} events are recorded by the server, not sent"
            if problem is None:
                valid.append(event)
            else:
                seq = event.get("seq") if isinstance(event, dict) else None
                rejected.append({"seq": seq if _is_int(seq) else None, "error": problem})
        stored = self.store.add_events(valid) if valid else 0
        return {"acked": [e["seq"] for e in valid], "stored": stored, "rejected": rejected}

    def assistant_for(self, row: dict[str, Any], kind: str) -> Assistant:
        if row["kind"] != kind or row["condition"] not in self.assistants:
            raise ApiError(403, f"this session's condition has no {kind}")
        return self.assistants[row["condition"]]

    async def _in_task(self, row: dict[str, Any], tab: Any) -> dict[str, Any]:
        def check() -> dict[str, Any]:
            with self.protocol.lock(row["session"]):
                return self.protocol.require(row, tab, "task")

        return await run_in_threadpool(check)

    async def suggest(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        row = self.session_of(body.get("session"))
        assistant = self.assistant_for(row, "autocomplete")
        await self._in_task(row, body.get("tab"))
        prefix, suffix = str(body.get("prefix", "")), str(body.get("suffix", ""))
        max_tokens = self.study.max_tokens.draw(self.rng)
        temperature = self.study.suggestion_temperature
        text = await self.call_model(
            row, "suggest", assistant.suggest, prefix, suffix, max_tokens, temperature
        )
        return {"suggestion": text, "max_tokens": max_tokens}

    async def call_model(self, row: dict[str, Any], service: str, call: Any, *args: Any) -> str:
        """``call(*args)`` in a worker thread; on failure a ``model_error`` event is stored
        and the participant gets a neutral 503 (never the model's name or the error)."""
        started = time.monotonic()
        try:
            return await run_in_threadpool(call, *args)
        except Exception as exc:  # a model that is down, slow or broken
            error = scrub(" ".join(str(exc).split()))[:500] or type(exc).__name__
            log.warning("study %s: model error (%s): %s", row["condition"], service, error)
            data = {
                "service": service,
                "error": error,
                "latency_ms": int((time.monotonic() - started) * 1000),
            }
            await run_in_threadpool(
                self.store.add_server_event, row["session"], "model_error", None, data
            )
            raise ApiError(503, UNAVAILABLE) from None

    async def chat(self, request: Request) -> dict[str, Any]:
        """One chat message: the history is the server's saved chat of this participant (not
        the browser's), the exchange is logged as a ``chat_exchange`` server event, and a
        participant is held to the study's rate limit (429 past it)."""
        body = await self.body(request)
        row = self.session_of(body.get("session"))
        assistant = self.assistant_for(row, "chat")
        text, message_id = body.get("message"), body.get("message_id")
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_CHAT_CHARS:
            raise ApiError(
                400, f"message must be non-empty text of at most {MAX_CHAT_CHARS} characters"
            )
        if not isinstance(message_id, str) or not 0 < len(message_id) <= 200:
            raise ApiError(400, "message_id must be a string of 1 to 200 characters")
        state = await run_in_threadpool(self.protocol.chat_turn, row, body.get("tab"))
        history = [{"role": m["role"], "content": m["content"]} for m in state["chat"]]
        history.append({"role": "user", "content": text})
        study, started = self.study, time.monotonic()
        task = study.task_sets[row["task_set"]][state["task_index"]]
        reply = await self.call_model(
            row, "chat", assistant.reply, history, study.chat_max_tokens, study.chat_temperature
        )
        reply_id = f"m-{uuid.uuid4()}"
        data = {
            "message_id": message_id,
            "reply_id": reply_id,
            "text": text,
            "reply": reply,
            "latency_ms": int((time.monotonic() - started) * 1000),
        }
        await run_in_threadpool(
            self.store.add_server_event, row["session"], "chat_exchange", task, data
        )
        turns = [
            {"role": "user", "content": text, "id": message_id},
            {"role": "assistant", "content": reply, "id": reply_id},
        ]
        await run_in_threadpool(self.protocol.add_chat, row, turns)
        return {"text": reply, "message_id": reply_id}

    async def execute(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        row = self.session_of(body.get("session"))
        names = self.study.task_sets[row["task_set"]]
        task_name, mode, code, tab = (
            body.get("task"),
            body.get("mode"),
            body.get("code"),
            body.get("tab"),
        )
        if task_name not in names:
            raise ApiError(400, f"task {task_name!r} is not in this session's task set")
        if mode not in ("run", "submit") or not isinstance(code, str):
            raise ApiError(400, "mode must be run or submit, and code a string")
        state = await self._in_task(row, tab)
        if names[state["task_index"]] != task_name:
            raise ApiError(409, f"task {task_name!r} is not the current task")
        outcome = await run_in_threadpool(
            self.runner.execute, self.study.tasks[task_name], code, mode
        )
        verdict = {"code": code, "passed": outcome.passed, "output": outcome.output}
        await run_in_threadpool(
            self.store.add_server_event, row["session"], mode, task_name, verdict
        )
        reply: dict[str, Any] = {"passed": outcome.passed, "output": outcome.output}
        if mode == "submit" and outcome.passed:
            state = await run_in_threadpool(self.protocol.passed, row, tab, task_name)
            reply.update(self.progress_reply(row, state, tab))
        return reply

    # -- admin --------------------------------------------------------------------------------

    def check_token(self, request: Request) -> None:
        given = request.query_params.get("token") or request.headers.get(
            "authorization", ""
        ).removeprefix("Bearer ")
        if not hmac.compare_digest(given.encode(), self.admin_token.encode()):
            raise ApiError(403, "admin token missing or wrong")

    async def admin(self, request: Request) -> HTMLResponse:
        self.check_token(request)
        summaries = await run_in_threadpool(self.store.session_summaries, self.study.tutorial)
        errors = await run_in_threadpool(self.store.error_counts)
        return HTMLResponse(admin_page(self.study, summaries, self.admin_token, errors))

    async def export(self, request: Request) -> StreamingResponse:
        self.check_token(request)

        def lines():
            for event in read_events(self.store.path):
                yield json.dumps(scrub(event), ensure_ascii=False) + "\n"

        return StreamingResponse(
            lines(),
            media_type="application/x-ndjson",
            headers={
                "Content-Disposition": f'attachment; filename="{self.study.name}-events.jsonl"'
            },
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tab(value: Any, required: bool = True) -> str | None:
    """A browser tab's id as sent (1-100 characters, never the server's own)."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 100 or value == SERVER_TAB:
        raise ApiError(400, "tab must be the page's id (1 to 100 characters)")
    return value


def _json_route(handler):
    async def endpoint(request: Request):
        try:
            return JSONResponse(scrub(await handler(request)))
        except ApiError as exc:
            return JSONResponse({"error": scrub(str(exc))}, status_code=exc.status)

    return endpoint


def _page_route(handler):
    async def endpoint(request: Request):
        try:
            return await handler(request)
        except ApiError as exc:
            return HTMLResponse(f"<p>{escape(scrub(str(exc)))}</p>", status_code=exc.status)

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
        Route("/api/session/{session}/claim", _json_route(state.claim), methods=["POST"]),
        Route("/api/session/{session}/consent", _json_route(state.consent), methods=["POST"]),
        Route("/api/session/{session}/survey", _json_route(state.survey), methods=["POST"]),
        Route("/api/session/{session}/code", _json_route(state.save_code), methods=["POST"]),
        Route("/api/session/{session}/skip", _json_route(state.skip), methods=["POST"]),
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
        await run_in_threadpool(state.close_models)  # no managed server outlives the app
        state.runner.close()
        state.store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.study = state
    return app
