"""The scripted participants of ``seebench study simulate`` and the clock they share.

A :class:`Player` speaks the study's HTTP API as the page does (protocol steps with its tab,
telemetry events, code runs, model calls); a :class:`Cohort` plays one behaviour with it:
*diligent*, *two-tab*, *skipper*, *decliner*, *idle* or *forger* (see
:mod:`seebench_study.simulate`). Time is a :class:`VirtualClock` that the server also reads,
moved forward by the participants' work.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from seebench.errors import SeebenchError

#: The tutorial, then the four tasks every simulated participant gets (quick to check).
TUTORIAL = "sum_product"
TASKS = ("even_odd_count", "triple_sum_to_zero", "is_bored", "count_nums")
#: Behaviours in the order participants get them (repeated); 6 of 10 play the tasks.
PATTERN = (
    "diligent",
    "two-tab",
    "skipper",
    "diligent",
    "decliner",
    "diligent",
    "idle",
    "diligent",
    "forger",
    "two-tab",
)
#: The exclusion rule each behaviour must fall under (``None``: kept).
EXPECTED_RULE = {
    "diligent": None,
    "two-tab": None,
    "skipper": None,
    "decliner": "no-consent",
    "idle": "no-task",
    "forger": "no-task",
}
#: Solve times: a mean per task, a participant's skill and a task's luck (seconds, normal).
SOLVE_MEAN_S, SKILL_SD_S, LUCK_SD_S, FASTEST_S = 240.0, 30.0, 30.0, 30.0


class VirtualClock:
    """Milliseconds since the epoch that only move when :meth:`advance` is called."""

    def __init__(self, start_ms: int = 1_767_225_600_000) -> None:  # 2026-01-01
        self._now = start_ms
        self._lock = threading.Lock()

    def __call__(self) -> int:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += int(seconds * 1000)


class Player:
    """One scripted participant speaking the study's HTTP API."""

    def __init__(self, client: Any, clock: VirtualClock, rng: random.Random, name: str) -> None:
        self.client, self.clock, self.rng, self.name = client, clock, rng, name
        self.tab = f"{name}-tab-a"
        self.session = ""
        self.kind = ""
        self.refused: dict[str, int] = {}
        self.end_code: str | None = None
        self.seq = 0

    def post(self, path: str, body: dict[str, Any], refusal: str | None = None) -> dict:
        """POST ``body``; a refusal (4xx) is counted under ``refusal`` when one is expected,
        anything else that is not 200 is a :class:`SeebenchError`."""
        reply = self.client.post(path, json=body)
        if refusal is not None and 400 <= reply.status_code < 500:
            self.refused[refusal] = self.refused.get(refusal, 0) + 1
            return {}
        if reply.status_code != 200:
            raise SeebenchError(
                f"simulated {self.name}: {path} answered {reply.status_code}: {reply.text[:200]}"
            )
        return reply.json()

    def step(self, action: str, refusal: str | None = None, **body: Any) -> dict:
        reply = self.post(
            f"/api/session/{self.session}/{action}", {"tab": self.tab, **body}, refusal
        )
        return reply.get("progress", {})

    def log(self, type_: str, data: dict[str, Any], task: str | None) -> None:
        """Telemetry as the page sends it (this tab's numbering)."""
        event = {
            "schema": 1,
            "session": self.session,
            "tab": self.tab,
            "seq": self.seq,
            "type": type_,
            "task": task,
            "client_time": self.clock(),
            "data": data,
        }
        self.seq += 1
        self.post("/api/events", {"session": self.session, "events": [event]})

    def open(self) -> None:
        view = self.post("/api/session", {"participant": self.name, "tab": self.tab})
        self.session, self.kind = view["session"], view["kind"]

    def enter(self) -> dict:
        """Consent, the screening page and the pre-survey: the tutorial's progress."""
        self.step("consent", accepted=True)
        self.step("survey", survey="screening", answers={"adult": "yes"})
        return self.step(
            "survey", survey="pre", answers={"experience": self.rng.choice(["0-2", "3+"])}
        )

    def submit(self, task: str, code: str) -> dict:
        body = {
            "session": self.session,
            "tab": self.tab,
            "task": task,
            "mode": "submit",
            "code": code,
        }
        return self.post("/api/execute", body)

    def use_assistant(self, task: str, code: str) -> None:
        """One suggestion (shown and accepted) or one chat exchange, logged as a page does."""
        if self.kind == "autocomplete":
            body = {"session": self.session, "tab": self.tab, "prefix": code, "suffix": ""}
            reply = self.post("/api/suggest", body)
            request = f"r-{self.name}-{task}"
            self.log(
                "suggestion_requested",
                {
                    "request_id": request,
                    "prefix": code,
                    "suffix": "",
                    "trigger": "hotkey",
                    "max_tokens": reply["max_tokens"],
                },
                task,
            )
            self.log(
                "suggestion_shown",
                {"request_id": request, "suggestion": reply["suggestion"], "latency_ms": 5},
                task,
            )
            self.log(
                "suggestion_accepted",
                {"request_id": request, "suggestion": reply["suggestion"]},
                task,
            )
        elif self.kind == "chat":
            message = f"m-{self.name}-{task}"
            self.log(
                "chat_user_message",
                {"message_id": message, "text": f"how do I solve {task}?"},
                task,
            )
            body = {
                "session": self.session,
                "tab": self.tab,
                "message": f"how do I solve {task}?",
                "message_id": message,
            }
            reply = self.post("/api/chat", body)
            self.log(
                "chat_assistant_response",
                {
                    "message_id": reply["message_id"],
                    "reply_to": message,
                    "text": reply["text"],
                    "latency_ms": 5,
                },
                task,
            )

    def finish(self) -> None:
        self.step("survey", survey="post", answers=self.post_answers())
        self.end_code = self.post(f"/api/session/{self.session}/finish", {}, "end code").get(
            "end_code"
        )

    def post_answers(self) -> dict[str, int]:
        answers = {"tlx_mental": self.rng.randint(1, 20)}
        if self.kind != "none":
            answers["helpfulness"] = self.rng.randint(1, 10)
        return answers


class Cohort:
    """The behaviours, played against one served study."""

    def __init__(
        self, clock: VirtualClock, rng: random.Random, faster_s: float, codes: dict[str, str]
    ) -> None:
        self.clock, self.rng, self.faster_s, self.codes = clock, rng, faster_s, codes

    def play(self, player: Player, behaviour: str) -> None:
        player.open()
        if behaviour == "decliner":
            return self.decline(player)
        progress = player.enter()
        if behaviour == "idle":
            self.clock.advance(600)
            return None
        if behaviour == "forger":
            return self.forge(player)
        self.solve(player, progress, TUTORIAL, self.rng.uniform(60, 180))
        skill = self.rng.gauss(0, SKILL_SD_S)
        for index, task in enumerate(TASKS):
            if behaviour == "skipper":
                if not self.skip(player, task):
                    break
                continue
            if behaviour == "two-tab" and index == 1:
                self.second_tab(player, task)
            seconds = SOLVE_MEAN_S + skill + self.rng.gauss(0, LUCK_SD_S)
            if player.kind == "autocomplete":
                seconds -= self.faster_s
            self.solve(player, {}, task, max(FASTEST_S, seconds))
        player.finish()
        return None

    def solve(self, player: Player, progress: dict, task: str, seconds: float) -> None:
        """Work ``seconds`` on ``task`` (a wrong Submit on the way, sometimes), then pass it."""
        player.use_assistant(task, "")
        if self.rng.random() < 0.3:
            self.clock.advance(seconds / 2)
            seconds /= 2
            player.submit(task, "pass\n")
        self.clock.advance(seconds)
        verdict = player.submit(task, self.codes[task])
        if not verdict.get("passed"):
            raise SeebenchError(f"simulated {player.name}: the reference solution of {task} failed")

    def skip(self, player: Player, task: str) -> bool:
        """Try to skip at once (refused), then when allowed; ``False`` once the clock ran out."""
        self.clock.advance(1)
        player.step("skip", "early skip", task=task)
        self.clock.advance(10 * 60)
        progress = player.step("skip", "skip after the clock ran out", task=task)
        return progress.get("phase") == "task"

    def second_tab(self, player: Player, task: str) -> None:
        """A second tab opens: it is refused until it takes over; then the first one is."""
        first, second = player.tab, f"{player.name}-tab-b"
        view = player.client.get(f"/api/session/{player.session}", params={"tab": second}).json()
        if view["progress"]["active"]:
            raise SeebenchError(f"simulated {player.name}: a second tab took over unasked")
        player.tab = second
        player.post(
            "/api/execute",
            {"session": player.session, "tab": second, "task": task, "mode": "run", "code": "1"},
            "run from an inactive tab",
        )
        player.step("claim")
        player.post(
            "/api/execute",
            {"session": player.session, "tab": first, "task": task, "mode": "run", "code": "1"},
            "run from a tab taken over",
        )

    def decline(self, player: Player) -> None:
        player.step("consent", accepted=False)
        body = {
            "session": player.session,
            "tab": player.tab,
            "task": TUTORIAL,
            "mode": "run",
            "code": "1",
        }
        player.post("/api/execute", body, "run after declining")
        player.post(f"/api/session/{player.session}/finish", {}, "end code after declining")

    def forge(self, player: Player) -> None:
        events = [
            {
                "schema": 1,
                "session": player.session,
                "tab": tab,
                "seq": seq,
                "type": "task_finished",
                "task": task,
                "client_time": self.clock(),
                "data": {"outcome": "passed"},
            }
            for seq, (tab, task) in enumerate(
                [(player.tab, t) for t in TASKS] + [("server", TASKS[0])]
            )
        ]
        reply = player.post("/api/events", {"session": player.session, "events": events})
        player.refused["forged events"] = len(reply.get("rejected", []))
        player.post(f"/api/session/{player.session}/finish", {}, "end code for forged finishes")
