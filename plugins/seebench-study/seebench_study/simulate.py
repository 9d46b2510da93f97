"""A simulated cohort: scripted participants play a study through the real HTTP protocol.

``seebench study simulate --participants N`` serves a small RealHumanEval study (the tutorial
and four tasks, a no-LLM, an autocomplete and a chat condition on a stand-in model on
127.0.0.1) in this process, and N participants play it one after another over HTTP, each with
a behaviour: *diligent* (solves every task with the task's reference solution, sometimes after
a wrong Submit, and uses the assistant once per task), *two-tab* (diligent, but opens a second
tab that must take the session over), *skipper* (tries to skip at once, is refused, skips when
allowed), *decliner* (declines, then tries to run code and to get an end code), *idle* (answers
the surveys, then does nothing) and *forger* (sends forged finishes and asks for an end code).

Time is simulated: the server's clock is a :class:`VirtualClock` that the participants move
forward (a task "takes" its solve time at once), so 35-minute sessions run in a moment while
code still runs in the real sandbox. Solve times are drawn per participant and task; the
autocomplete condition makes every task faster by ``faster_s`` seconds (the planted effect).
:func:`check` then runs the study analysis and says whether it recovered the effect within its
95% interval and excluded exactly the sessions the rules should.
"""

from __future__ import annotations

import csv
import json
import os
import random
import tempfile
import textwrap
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
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
KEY_ENV = "SEEBENCH_SIMULATE_KEY"


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


@dataclass
class Outcome:
    """What the cohort did and what the analysis found."""

    participants: int
    behaviours: dict[str, str] = field(default_factory=dict)  # session -> behaviour
    refused: dict[str, int] = field(default_factory=dict)  # what the server refused, counted
    end_codes: int = 0
    faster_s: float = 0.0
    delta: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)
    expected_removed: dict[str, int] = field(default_factory=dict)
    wrongly_removed: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def recovered(self) -> bool:
        """The planted effect lies in the autocomplete delta's interval, the chat's holds 0."""
        checks = [("autocomplete", -self.faster_s), ("chat", 0.0)]
        return all(
            name in self.delta and self.delta[name][1] <= want <= self.delta[name][2]
            for name, want in checks
        )

    @property
    def exclusions_right(self) -> bool:
        return self.removed == self.expected_removed and not self.wrongly_removed

    def lines(self) -> list[str]:
        counts: dict[str, int] = {}
        for behaviour in self.behaviours.values():
            counts[behaviour] = counts.get(behaviour, 0) + 1
        out = [
            f"simulated {self.participants} participants in {self.seconds:.1f} s: "
            + ", ".join(f"{b} {n}" for b, n in sorted(counts.items())),
            f"end codes given: {self.end_codes}; refused by the server: "
            + (", ".join(f"{k} {v}" for k, v in sorted(self.refused.items())) or "nothing"),
        ]
        for name, (delta, low, high) in sorted(self.delta.items()):
            planted = -self.faster_s if name == "autocomplete" else 0.0
            out.append(
                f"time to success, {name} - no_llm: {delta:+.1f} s (95% CI {low:+.1f} .. "
                f"{high:+.1f}); planted {planted:+.1f} s"
            )
        out.append(
            "excluded: "
            + ", ".join(
                f"{r} {n} (expected {self.expected_removed.get(r, 0)})"
                for r, n in self.removed.items()
            )
        )
        out.append(
            f"planted effect recovered: {'yes' if self.recovered else 'NO'}; "
            f"exclusions as expected: {'yes' if self.exclusions_right else 'NO'}"
        )
        return out


def write_study(folder: Path, model_url: str) -> Path:
    """The simulated study's YAML (the RealHumanEval task table must be in the data cache)."""
    from seebench_study.definition import find_study, read_document

    shipped = read_document(find_study("realhumaneval"))
    options = f'{{base_url: "{model_url}", api_key_env: {KEY_ENV}, max_retries: 0}}'
    text = f"""
    name: simulated
    title: Simulated study
    instructions: {json.dumps(shipped["instructions"])}
    consent: {json.dumps(shipped["consent"])}
    tasks:
      source: {json.dumps(shipped["tasks"]["source"])}
      include: {json.dumps([TUTORIAL, *TASKS])}
    tutorial: {TUTORIAL}
    task_sets: [{json.dumps(list(TASKS))}]
    conditions:
      - {{id: no_llm, kind: none}}
      - {{id: autocomplete, kind: autocomplete, model: "openai:stand-in", options: {options}}}
      - {{id: chat, kind: chat, model: "openai:stand-in", options: {options}}}
    session_minutes: 35
    skip_after_minutes: 10
    completion: {{min_tasks: 1}}
    surveys:
      pre:
        - {{id: adult, kind: choice, text: "Are you 18 or older?", options: ["yes", "no"], required: true, screen: ["yes"]}}
        - {{id: experience, kind: choice, text: "Years of Python?", options: ["0-2", "3+"], required: true}}
      post:
        - {{id: tlx_mental, kind: scale, min: 1, max: 20, text: "How mentally demanding was it?", required: true}}
        - {{id: helpfulness, kinds: [autocomplete, chat], kind: scale, min: 1, max: 10, text: "How helpful was the assistant?", required: true}}
    """
    path = folder / "simulated.yaml"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def solutions() -> dict[str, str]:
    """The reference solution of each task, from the cached RealHumanEval task table."""
    from seebench.data.cache import cached_file
    from seebench_study.definition import find_study, read_document

    source = read_document(find_study("realhumaneval"))["tasks"]["source"]
    table = cached_file(source["sha256"])
    if table is None:
        raise SeebenchError(
            "the RealHumanEval task table is not in the data cache; run "
            "'seebench study import-data realhumaneval DIR' (or pass --data DIR)"
        )
    with open(table, encoding="utf-8", newline="") as handle:
        return {row["name"]: row.get("solution") or "" for row in csv.DictReader(handle)}


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


def serve_in_thread(app: Any) -> tuple[Any, threading.Thread, str]:
    """``app`` on a free 127.0.0.1 port in a thread: (server, thread, base URL)."""
    import uvicorn

    from seebench_study.loadtest import free_port

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise SeebenchError(f"the simulated study server did not start on 127.0.0.1:{port}")
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{port}"


def simulate(
    participants: int,
    db: Path,
    *,
    faster_s: float = 60.0,
    seed: int = 0,
    unsafe_host_exec: bool = False,
) -> Outcome:
    """Play ``participants`` scripted participants into the study database ``db`` (which must
    not exist yet); the outcome before :func:`check`."""
    import httpx

    from seebench_study.app import StudyApp, create_app
    from seebench_study.definition import load_study
    from seebench_study.loadtest import StandInChatModel
    from seebench_study.store import StudyStore

    if db.exists():
        raise SeebenchError(f"{db}: already exists; simulate writes a new study database")
    started = time.monotonic()
    codes = solutions()
    clock, rng = VirtualClock(), random.Random(seed)
    outcome = Outcome(participants, faster_s=faster_s)
    os.environ.setdefault(KEY_ENV, "simulated-key-0000")
    with StandInChatModel(0.0) as model, tempfile.TemporaryDirectory() as folder:
        study = load_study(str(write_study(Path(folder), model.base_url)))
        state = StudyApp(
            study,
            StudyStore(db, clock=clock),
            "simulate",
            seed=seed,
            unsafe_host_exec=unsafe_host_exec,
        )
        server, thread, base = serve_in_thread(create_app(state))
        cohort = Cohort(clock, rng, faster_s, codes)
        try:
            with httpx.Client(base_url=base, timeout=60) as client:
                for number in range(participants):
                    behaviour = PATTERN[number % len(PATTERN)]
                    player = Player(client, clock, rng, f"sim-{number:03d}")
                    cohort.play(player, behaviour)
                    outcome.behaviours[player.session] = behaviour
                    outcome.end_codes += player.end_code is not None
                    for what, count in player.refused.items():
                        outcome.refused[what] = outcome.refused.get(what, 0) + count
                    clock.advance(rng.uniform(0, 120))
        finally:
            server.should_exit = True
            thread.join(timeout=30)
    outcome.seconds = time.monotonic() - started
    return outcome


def check(outcome: Outcome, db: Path, *, resamples: int = 2000, seed: int = 0) -> Outcome:
    """Analyse ``db`` with the default exclusion rules and fill in what was recovered."""
    from seebench_study.analysis.events import read_events
    from seebench_study.analysis.exclusions import DEFAULT_RULES
    from seebench_study.analysis.report import analyze

    analysis = analyze(read_events(db), resamples=resamples, seed=seed, exclude=DEFAULT_RULES)
    assert analysis.exclusions is not None
    outcome.removed = {rule: len(ids) for rule, ids in analysis.exclusions.removed.items()}
    outcome.expected_removed = dict.fromkeys(DEFAULT_RULES, 0)
    for behaviour in outcome.behaviours.values():
        rule = EXPECTED_RULE[behaviour]
        if rule is not None:
            outcome.expected_removed[rule] += 1
    outcome.wrongly_removed = [
        session
        for rule, ids in analysis.exclusions.removed.items()
        for session in ids
        if EXPECTED_RULE[outcome.behaviours[session]] != rule
    ]
    rows = analysis.comparison
    if not rows.empty:
        for _, row in rows[rows["metric"] == "time_to_success_s"].iterrows():
            outcome.delta[row["condition"]] = (row["delta"], row["ci_low"], row["ci_high"])
    return outcome
