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
import secrets
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
from seebench_study.store import StudyStore, now_ms, read_events
from seebench_study.surveys import answer_problem
from seebench_study.telemetry import SERVER_TYPES, event_problem

MAX_BODY_BYTES = 4 << 20
MAX_EVENTS_PER_POST = 200
#: What a participant reads when the model fails (never the model's name or the error).
UNAVAILABLE = "The assistant is not available right now. Please continue without it."
log = logging.getLogger("seebench.study")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def static_dir() -> Path:
    return Path(str(resources.files("seebench_study") / "static"))


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
        for condition in study.conditions:  # their keys are never sent, even by mistake
            if condition.model:
                key_env = str(condition.options.get("api_key_env") or "OPENAI_API_KEY")
                register_secret(os.environ.get(key_env))
        self.runner = CodeRunner(
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

    def session_view(self, row: dict[str, Any]) -> dict[str, Any]:
        """What the browser needs for a session: never tests, model options or keys."""
        study = self.study
        condition = study.condition(row["condition"])
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
            "surveys": {
                name: [_public_item(i) for i in study.survey_items(name, condition)]
                for name in ("pre", "post")
            },
            "tutorial": study.tutorial,
            "completion_url": study.completion_url,
            "next_seq": self.store.next_seq(row["session"]),
            "finished": row["finished"] is not None,
        }

    # -- participant API --------------------------------------------------------------------

    async def new_session(self, request: Request) -> dict[str, Any]:
        body = await self.body(request)
        participant = body.get("participant") or ""
        if not isinstance(participant, str) or len(participant) > 100:
            raise ApiError(400, "participant must be a string of at most 100 characters")
        study = self.study
        if participant:  # one participant code, one session, whatever the browser
            existing = self.store.session_by_participant(study.name, participant)
            if existing is not None:
                return {**self.session_view(existing), "resumed": True}
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
        return {**self.session_view({**row, "finished": None}), "resumed": False}

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
        return await run_in_threadpool(self.accept_events, row, events)

    def accept_events(self, row: dict[str, Any], events: list[Any]) -> dict[str, Any]:
        """Validate each event, store the valid ones in one transaction, and say which seqs
        are acknowledged (stored now or before) and which are rejected, with the reason.

        Run/Submit verdicts and model errors are the server's to record: a browser's claim of
        them is rejected, and so is a ``task_finished`` ``passed`` without a passing Submit of
        that task. Survey answers are checked against the items of the session's condition;
        an answer outside an item's ``screen`` list is stored with ``screened_out: true``.
        """
        session = row["session"]
        condition = self.study.condition(row["condition"])
        valid, rejected = [], []
        for event in events:
            problem = event_problem(event)
            if problem is None and event["session"] != session:
                problem = "session: does not match the request's session"
            if problem is None:
                problem = self._claim_problem(session, condition, event)
            if problem is None:
                valid.append(event)
            else:
                seq = event.get("seq") if isinstance(event, dict) else None
                rejected.append({"seq": seq if _is_int(seq) else None, "error": problem})
        stored = self.store.add_events(valid) if valid else 0
        return {"acked": [e["seq"] for e in valid], "stored": stored, "rejected": rejected}

    def _claim_problem(self, session: str, condition: Any, event: dict[str, Any]) -> str | None:
        kind, data = event["type"], event["data"]
        if kind in SERVER_TYPES:
            return f"type: {kind} events are recorded by the server, not sent"
        if kind == "task_finished" and data["outcome"] == "passed":
            if not isinstance(event["task"], str):
                return "task: a passed task_finished must name its task"
            verdicts = self.store.server_events(session, "submit", event["task"])
            if not any(v.get("passed") is True for v in verdicts):
                return f"data.outcome: no passing Submit of task {event['task']!r} on the server"
        if kind == "survey_answer":
            items = {i["id"]: i for i in self.study.survey_items(data["survey"], condition)}
            item = items.get(data["item"])
            if item is None:
                return f"data.item: {data['item']!r} is not in this condition's {data['survey']} survey"
            problem = answer_problem(item, data["answer"])
            if problem is not None:
                return f"data.answer: {problem}"
            if item.get("screen") is not None:
                event["data"] = {**data, "screened_out": data["answer"] not in item["screen"]}
        return None

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
        text = await self.call_model(
            row, "chat", assistant.reply, history, study.chat_max_tokens, study.chat_temperature
        )
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
        verdict = {"code": code, "passed": outcome.passed, "output": outcome.output}
        await run_in_threadpool(
            self.store.add_server_event, row["session"], mode, task_name, verdict
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
        errors = await run_in_threadpool(self.store.error_counts)
        return HTMLResponse(admin_page(self.study, progress, self.admin_token, errors))

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


def _public_item(item: dict[str, Any]) -> dict[str, Any]:
    """A survey item as the browser gets it: without its screening answers."""
    return {k: v for k, v in item.items() if k not in ("screen", "conditions", "kinds")}


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
