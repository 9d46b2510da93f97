"""The study protocol as a state machine the server keeps per participant.

A participant goes consent -> screening -> pre-survey -> tutorial -> tasks -> post-survey ->
done, in that order and only forward (a phase with nothing to ask is passed through).
Declining consent (``declined``) and a screening answer the study does not accept
(``screened_out``) are final: nothing else is allowed after them. The place a participant has
reached (phase, current task, when it and the session clock started, the editor's contents,
the chat so far, the active tab) is saved in the store on every step, so any browser resumes
it, and the clock keeps running while no browser is open.

Every step the protocol takes is recorded as a server *fact* (:meth:`StudyStore.add_fact`),
once per (participant, task, kind): ``consent``, ``survey_answer``, ``load_task``, ``skip``,
``task_finished``, ``session_finished``. The browser cannot send these.

One tab at a time drives a participant: the tab that opened or took over the session last.
A request from another tab gets 409 (:data:`OTHER_TAB`); its page offers to take over.
"""

from __future__ import annotations

import collections
import secrets
import threading
from collections.abc import Callable
from typing import Any

from seebench_study.definition import Condition, Study
from seebench_study.store import StudyStore
from seebench_study.surveys import answer_problem

#: Phases after which nothing else is allowed.
FINAL = ("done", "declined", "screened_out")
SURVEY_PHASES = ("screening", "pre", "post")
#: What a tab that is not the participant's active one is told (HTTP 409).
OTHER_TAB = "this study continues in another tab or window"
#: A tab that has not been heard from for this long no longer holds the session.
TAB_STALE_MS = 12_000
#: A browser's clock may run this far ahead of the server's when it reports a timeout.
CLOCK_SLACK_MS = 2_000
MAX_CODE_CHARS = 200_000
MAX_CHAT_TURNS = 200


class ApiError(Exception):
    """A request the protocol refuses: the HTTP status and one line saying why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Protocol:
    """The participants' protocol on top of a :class:`StudyStore` (thread-safe)."""

    def __init__(self, study: Study, store: StudyStore, clock: Callable[[], int]) -> None:
        self.study = study
        self.store = store
        self.clock = clock
        self._locks: dict[str, threading.Lock] = collections.defaultdict(threading.Lock)
        self._guard = threading.Lock()
        self._seen: dict[str, int] = {}  # session -> when its active tab was last heard
        self._chat_times: dict[str, collections.deque] = collections.defaultdict(collections.deque)

    def lock(self, session: str) -> threading.Lock:
        """The lock that serialises one participant's steps."""
        with self._guard:
            return self._locks[session]

    # -- the saved place ------------------------------------------------------------------

    def begin(self, row: dict[str, Any], user_agent: str) -> None:
        """Record a new session's start and its first place (consent)."""
        data = {
            "condition": row["condition"],
            "kind": row["kind"],
            "task_set": row["task_set"],
            "user_agent": user_agent[:500],
        }
        self.store.add_fact(row["session"], "session_started", "session_started", None, data)
        self.store.save_progress(row["session"], self._initial())

    @staticmethod
    def _initial() -> dict[str, Any]:
        return {
            "phase": "consent",
            "task_index": 0,
            "task_started": None,
            "clock_started": None,
            "code": {},
            "chat": [],
            "active_tab": None,
            "end_code": None,
        }

    def state(self, row: dict[str, Any]) -> dict[str, Any]:
        """The participant's place now (a session clock that ran out ends the tasks)."""
        state = self.store.load_progress(row["session"]) or self._initial()
        if state["phase"] == "task" and self.clock_left_ms(row, state) == 0:
            self._end_task(row, state, "timeout")
            state["phase"] = "post"
            self.store.save_progress(row["session"], state)
        return state

    def clock_left_ms(self, row: dict[str, Any], state: dict[str, Any]) -> int | None:
        """Milliseconds left on the session clock (``None`` before it starts)."""
        if state["clock_started"] is None:
            return None
        used = self.clock() - state["clock_started"]
        return max(0, int(self.study.session_s * 1000) - used)

    def view(self, row: dict[str, Any], state: dict[str, Any], tab: str | None) -> dict[str, Any]:
        """What the browser needs to draw the participant's place."""
        condition = self.study.condition(row["condition"])
        phase = state["phase"]
        tasks = self.study.task_sets[row["task_set"]]
        task = tasks[state["task_index"]] if phase == "task" else None
        now = self.clock()
        return {
            "phase": phase,
            "task_index": state["task_index"],
            "task": task,
            "tutorial": phase == "task"
            and self.study.is_tutorial(row["task_set"], state["task_index"]),
            "task_elapsed_ms": now - state["task_started"] if task else None,
            "clock_left_ms": self.clock_left_ms(row, state),
            "skip_after_ms": int(self.study.skip_after_s * 1000),
            "code": state["code"].get(task) if task else None,
            "items": [_public_item(i) for i in self.study.phase_items(phase, condition)]
            if phase in SURVEY_PHASES
            else [],
            "chat": state["chat"],
            "end_code": state["end_code"],
            "active": tab is not None and state["active_tab"] == tab,
        }

    # -- tabs -----------------------------------------------------------------------------

    def claim(self, row: dict[str, Any], tab: str, force: bool) -> dict[str, Any]:
        """Make ``tab`` the participant's active tab when no other live tab holds it (or
        ``force``: the participant chose to continue here); returns the state."""
        session = row["session"]
        with self.lock(session):
            state = self.state(row)
            holder, now = state["active_tab"], self.clock()
            stale = now - self._seen.get(session, 0) > TAB_STALE_MS
            if holder != tab and (holder is None or stale or force):
                state["active_tab"] = tab
                self.store.save_progress(session, state)
            if state["active_tab"] == tab:
                self._seen[session] = now
            return state

    def require(self, row: dict[str, Any], tab: Any, *phases: str) -> dict[str, Any]:
        """The state, when ``tab`` is the active tab and the phase is one of ``phases``
        (call with the participant's lock held)."""
        state = self.state(row)
        if state["phase"] in ("declined", "screened_out"):
            raise ApiError(403, f"this session has ended ({state['phase'].replace('_', ' ')})")
        if not isinstance(tab, str) or state["active_tab"] != tab:
            raise ApiError(409, OTHER_TAB)
        if state["phase"] not in phases:
            raise ApiError(409, f"not allowed now: the session is at {state['phase']}")
        self._seen[row["session"]] = self.clock()
        return state

    # -- steps ----------------------------------------------------------------------------

    def consent(self, row: dict[str, Any], tab: Any, accepted: Any) -> dict[str, Any]:
        if not isinstance(accepted, bool):
            raise ApiError(400, "accepted must be true or false")
        with self.lock(row["session"]):
            state = self.require(row, tab, "consent")
            self.store.add_fact(row["session"], "consent", "consent", None, {"accepted": accepted})
            if accepted:
                self._advance_from(row, state, "consent")
            else:
                state["phase"] = "declined"
            self.store.save_progress(row["session"], state)
            return state

    def survey(self, row: dict[str, Any], tab: Any, which: Any, answers: Any) -> dict[str, Any]:
        if not isinstance(answers, dict):
            raise ApiError(400, "answers must be an object of item id -> answer")
        with self.lock(row["session"]):
            state = self.require(row, tab, *SURVEY_PHASES)
            if which != state["phase"]:
                raise ApiError(409, f"not allowed now: the session is at {state['phase']}")
            condition = self.study.condition(row["condition"])
            items = self.study.phase_items(which, condition)
            checked = _checked_answers(items, answers)
            survey = "post" if which == "post" else "pre"
            screened_out = False
            for item, answer in checked:
                data = {"survey": survey, "item": item["id"], "answer": answer}
                if item.get("screen") is not None:
                    data["screened_out"] = answer not in item["screen"]
                    screened_out = screened_out or data["screened_out"]
                key = f"survey_answer:{survey}:{item['id']}"
                self.store.add_fact(row["session"], key, "survey_answer", None, data)
            if screened_out:
                state["phase"] = "screened_out"
            elif which == "post":
                self._complete(row, state)
            else:
                self._advance_from(row, state, which)
            self.store.save_progress(row["session"], state)
            return state

    def save_code(self, row: dict[str, Any], tab: Any, task: Any, code: Any) -> dict[str, Any]:
        """Keep the editor's contents of the current task (what a resumed browser shows)."""
        if not isinstance(code, str) or len(code) > MAX_CODE_CHARS:
            raise ApiError(400, f"code must be a string of at most {MAX_CODE_CHARS} characters")
        with self.lock(row["session"]):
            state = self.require(row, tab, "task")
            self._current_task(row, state, task)
            state["code"][task] = code
            self.store.save_progress(row["session"], state)
            return state

    def skip(self, row: dict[str, Any], tab: Any, task: Any) -> dict[str, Any]:
        """Leave the current task, once it has been open for the study's skip time."""
        with self.lock(row["session"]):
            state = self.require(row, tab, "task")
            self._current_task(row, state, task)
            elapsed = self.clock() - state["task_started"]
            wait = self.study.skip_after_s * 1000 - elapsed
            if wait > 0:
                raise ApiError(
                    409,
                    f"a task can be skipped after it has been open "
                    f"{self.study.skip_after_s:g} s ({wait / 1000:.0f} s to go)",
                )
            data = {"elapsed_s": round(elapsed / 1000, 3)}
            self.store.add_fact(row["session"], f"skip:{task}", "skip", task, data)
            self._end_task(row, state, "skipped")
            self._enter_task(row, state, state["task_index"] + 1)
            self.store.save_progress(row["session"], state)
            return state

    def passed(self, row: dict[str, Any], tab: Any, task: str) -> dict[str, Any]:
        """After a passing Submit of ``task`` (recorded by the caller): on to the next task."""
        with self.lock(row["session"]):
            state = self.require(row, tab, "task")
            self._current_task(row, state, task)
            self._end_task(row, state, "passed")
            self._enter_task(row, state, state["task_index"] + 1)
            self.store.save_progress(row["session"], state)
            return state

    def end_code(self, row: dict[str, Any]) -> str:
        """The end code of a session that met the completion rule (else 409 with why)."""
        with self.lock(row["session"]):
            state = self.state(row)
            if state["phase"] != "done":
                raise ApiError(409, f"no end code: the session is at {state['phase']}")
            if state["end_code"] is None:
                raise ApiError(
                    409,
                    f"no end code: fewer than {self.study.min_tasks} task(s) were worked on",
                )
            return state["end_code"]

    def chat_turn(self, row: dict[str, Any], tab: Any) -> dict[str, Any]:
        """Check a chat message may be sent now (active tab, a task open, under the rate
        limit); returns the state. Raises 429 past the limit."""
        with self.lock(row["session"]):
            state = self.require(row, tab, "task")
            limit, seconds = self.study.chat_rate
            now = self.clock()
            times = self._chat_times[row["session"]]
            while times and now - times[0] >= seconds * 1000:
                times.popleft()
            if len(times) >= limit:
                wait = (times[0] + seconds * 1000 - now) / 1000
                raise ApiError(429, f"too many messages: wait {wait:.0f} s")
            if len(state["chat"]) >= MAX_CHAT_TURNS:
                raise ApiError(429, "this session has used all its chat messages")
            times.append(now)
            return state

    def add_chat(self, row: dict[str, Any], turns: list[dict[str, str]]) -> None:
        """Append an exchange to the participant's saved chat."""
        with self.lock(row["session"]):
            state = self.state(row)
            state["chat"] = [*state["chat"], *turns]
            self.store.save_progress(row["session"], state)

    # -- transitions ----------------------------------------------------------------------

    def _advance_from(self, row: dict[str, Any], state: dict[str, Any], phase: str) -> None:
        """Go to the first phase after ``phase`` that asks something (or the first task)."""
        condition: Condition = self.study.condition(row["condition"])
        for following in ("screening", "pre"):
            if SURVEY_PHASES.index(following) <= _order(phase):
                continue
            if self.study.phase_items(following, condition):
                state["phase"] = following
                return
        self._enter_task(row, state, 0)

    def _enter_task(self, row: dict[str, Any], state: dict[str, Any], index: int) -> None:
        tasks = self.study.task_sets[row["task_set"]]
        if index >= len(tasks):
            state["phase"] = "post"
            return
        now = self.clock()
        tutorial = self.study.is_tutorial(row["task_set"], index)
        state.update(phase="task", task_index=index, task_started=now)
        if not tutorial and state["clock_started"] is None:
            state["clock_started"] = now  # the session clock starts after the tutorial
        data: dict[str, Any] = {"task": tasks[index], "index": index}
        if tutorial:
            data["tutorial"] = True
        self.store.add_fact(
            row["session"], f"load_task:{tasks[index]}", "load_task", tasks[index], data
        )

    def _end_task(self, row: dict[str, Any], state: dict[str, Any], outcome: str) -> None:
        task = self.study.task_sets[row["task_set"]][state["task_index"]]
        self.store.add_fact(
            row["session"], f"task_finished:{task}", "task_finished", task, {"outcome": outcome}
        )
        state["code"].pop(task, None)
        if not self.study.is_tutorial(row["task_set"], state["task_index"]):
            state["ended"] = state.get("ended", 0) + 1

    def _current_task(self, row: dict[str, Any], state: dict[str, Any], task: Any) -> None:
        current = self.study.task_sets[row["task_set"]][state["task_index"]]
        if task != current:
            raise ApiError(409, f"task {str(task)[:80]!r} is not the current task ({current})")

    def _complete(self, row: dict[str, Any], state: dict[str, Any]) -> None:
        """The end of the protocol: an end code when the completion rule is met."""
        state["phase"] = "done"
        if state.get("ended", 0) < self.study.min_tasks:
            return
        code = self.store.finish_session(row["session"], secrets.token_hex(4).upper())
        state["end_code"] = code
        self.store.add_fact(
            row["session"], "session_finished", "session_finished", None, {"end_code": code}
        )


def _order(phase: str) -> int:
    return -1 if phase == "consent" else SURVEY_PHASES.index(phase)


def _checked_answers(items: list[dict[str, Any]], answers: dict[str, Any]) -> list[tuple]:
    """(item, answer) for every answered item; 400 for an unknown item, a bad answer or a
    required item left out."""
    by_id = {i["id"]: i for i in items}
    unknown = [k for k in answers if k not in by_id]
    if unknown:
        raise ApiError(400, f"answers: {str(unknown[0])[:80]!r} is not an item of this survey")
    checked = []
    for item in items:
        answer = answers.get(item["id"])
        if answer is None or answer == "":
            if item.get("required"):
                raise ApiError(400, f"answers: item {item['id']!r} is required")
            continue
        problem = answer_problem(item, answer)
        if problem is not None:
            raise ApiError(400, f"answers: {problem}")
        checked.append((item, answer))
    return checked


def _public_item(item: dict[str, Any]) -> dict[str, Any]:
    """A survey item as the browser gets it: without its screening answers."""
    return {k: v for k, v in item.items() if k not in ("screen", "conditions", "kinds")}
