"""Fixtures for the study tests: the RealHumanEval task table from the data mirror, a fake
model server, a test study definition and the study app served in-process on 127.0.0.1."""

from __future__ import annotations

import json
import os
import textwrap
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from seebench_study.definition import find_study, import_study_data, read_document

from seebench_study_tests.fake_model import FakeModelServer
from tests.conftest import isolated_home  # noqa: F401  (every test: its own SEEBENCH_HOME)

MIRROR = Path(
    os.environ.get("SEEBENCH_STUDY_MIRROR")
    or Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "realhumaneval"
)
TEST_KEY = "sk-study-test-0123456789abcdef"
SHA256 = "288600a373290e3cd11b7a9630a9c8df0221723429e2d88cfa031b017ba690d9"


@pytest.fixture
def rhe_tasks() -> Path:
    """RealHumanEval's task table imported into this test's data cache (skips without the mirror)."""
    if not MIRROR.is_dir():
        pytest.skip("no ../shared/data/realhumaneval mirror")
    import_study_data(find_study("realhumaneval"), MIRROR.resolve() / "tasks")
    return MIRROR.resolve()


@pytest.fixture(scope="session")
def sandbox_ready() -> None:
    """Skip where no sandbox can start (fail under ``SEEBENCH_REQUIRE_SANDBOX=1``, as in CI)."""
    from seebench.sandbox import SandboxUnavailable, detect

    try:
        detect()
    except SandboxUnavailable as error:
        if os.environ.get("SEEBENCH_REQUIRE_SANDBOX") == "1":
            pytest.fail(f"SEEBENCH_REQUIRE_SANDBOX=1 but no sandbox: {error}")
        pytest.skip(f"no sandbox: {error}")


@pytest.fixture
def fake_model() -> Iterator[FakeModelServer]:
    with FakeModelServer() as server:
        yield server


def write_test_study(
    folder: Path,
    base_url: str,
    conditions: tuple[str, ...] = ("ac", "chat"),
    *,
    served: str | None = None,
    **overrides: str,
) -> Path:
    """A two-task RealHumanEval study with an autocomplete (``ac``) and a chat condition on
    the fake model (or both on the managed-server model spec ``served``, with no options);
    ``overrides`` change the timing keys."""
    settings = {
        "session_minutes": "35",
        "skip_after_minutes": "0",
        "snapshot_seconds": "3600",
        "pause_ms": "600000",
        **overrides,
    }
    options = f'{{base_url: "{base_url}", api_key_env: STUDY_TEST_KEY, max_retries: 0}}'
    arms = {
        "ac": f'{{id: ac, kind: autocomplete, model: "openai:fake-coder", options: {options}}}',
        "chat": f'{{id: chat, kind: chat, model: "openai:fake-chat", options: {options}}}',
        "fim": f'{{id: fim, kind: autocomplete, model: "openai:fake-base", options: {options},'
        " completion: {format: codellama}}",
        "none": "{id: none, kind: none}",
    }
    if served is not None:
        arms["ac"] = f'{{id: ac, kind: autocomplete, model: "{served}"}}'
        arms["chat"] = f'{{id: chat, kind: chat, model: "{served}"}}'
    condition_lines = "\n".join(f"      - {arms[c]}" for c in conditions)
    shipped = read_document(find_study("realhumaneval"))  # its texts, for the screenshots
    text = f"""
    name: rhe-test
    title: {json.dumps(shipped["title"])}
    instructions: {json.dumps(shipped["instructions"])}
    consent: {json.dumps(shipped["consent"])}
    tasks:
      source: {{sha256: {SHA256}, format: csv, file_name: tasks_data.csv}}
      include: [sum_product, even_odd_count]
    tutorial: sum_product
    task_sets: [[even_odd_count]]
    conditions:
{condition_lines}
    session_minutes: {settings["session_minutes"]}
    skip_after_minutes: {settings["skip_after_minutes"]}
    snapshot_seconds: {settings["snapshot_seconds"]}
    suggestion: {{pause_ms: {settings["pause_ms"]}, max_tokens: {{mean: 64, sd: 15, min: 10, max: 120}}}}
    surveys:
      pre:
        - {{id: experience, kind: choice, text: "Years of Python?", options: ["0-2", "3+"], required: true}}
        - {{id: adult, kind: choice, text: "Are you 18 or older?", options: ["yes", "no"], required: true, screen: ["yes"]}}
      post:
        - {{id: helpfulness, kinds: [autocomplete, chat], kind: scale, min: 1, max: 10, text: "How helpful was the assistant?", required: true}}
        - {{id: comments, kind: text, text: "Comments?"}}
    """
    path = folder / "rhe-test.yaml"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


@dataclass
class RunningStudy:
    base_url: str
    db: Path
    token: str
    state: object
    server: object = None
    thread: threading.Thread | None = None

    def stop(self) -> None:
        """Shut the app down as uvicorn does on Ctrl-C (its lifespan's shutdown runs)."""
        self.server.should_exit = True  # type: ignore[attr-defined]
        if self.thread is not None:
            self.thread.join(timeout=30)


@pytest.fixture
def serve(tmp_path, monkeypatch):
    """``serve(study_path)``: the study app on a free 127.0.0.1 port in a thread."""
    import uvicorn
    from seebench_study.app import StudyApp, create_app
    from seebench_study.definition import load_study
    from seebench_study.loadtest import free_port
    from seebench_study.store import StudyStore

    monkeypatch.setenv("STUDY_TEST_KEY", TEST_KEY)
    servers = []

    def start(study_path: Path) -> RunningStudy:
        port = free_port()
        store = StudyStore(tmp_path / "study.sqlite")
        state = StudyApp(load_study(str(study_path)), store, "admin-token-x", seed=1)
        config = uvicorn.Config(create_app(state), host="127.0.0.1", port=port, log_level="warning")
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        servers.append((server, thread))
        return RunningStudy(
            f"http://127.0.0.1:{port}", store.path, "admin-token-x", state, server, thread
        )

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(timeout=10)


def enter_task(client, participant: str, tab: str = "tab-1") -> dict:
    """A new session of the test study walked through the API to its first task (the
    tutorial), driven by ``tab``: its view with ``progress`` and ``tab``. ``client`` is an
    httpx client of the app (Starlette's TestClient is one)."""
    view = client.post("/api/session", json={"participant": participant, "tab": tab}).json()
    base = f"/api/session/{view['session']}"
    client.post(f"{base}/consent", json={"tab": tab, "accepted": True})
    steps = (("screening", {"adult": "yes"}), ("pre", {"experience": "3+"}))
    for survey, answers in steps:
        reply = client.post(
            f"{base}/survey", json={"tab": tab, "survey": survey, "answers": answers}
        )
    progress = reply.json()["progress"]
    assert progress["phase"] == "task", progress
    return {**view, "progress": progress, "tab": tab}
