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
from seebench_study.cohort import (
    EXPECTED_RULE,
    PATTERN,
    TASKS,
    TUTORIAL,
    Cohort,
    Player,
    VirtualClock,
)

KEY_ENV = "SEEBENCH_SIMULATE_KEY"


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
