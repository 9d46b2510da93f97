"""``seebench study serve`` checks before it creates anything: a busy port, a model that
does not resolve, a key variable that is not set; and its sandbox workers are configurable."""

from __future__ import annotations

import socket

from click.testing import CliRunner
from seebench_study.cli import model_warnings
from seebench_study.definition import load_study

from seebench_study_tests.conftest import write_test_study
from seebench_study_tests.test_plugin import _cli


def test_a_busy_port_is_an_error_before_the_database_or_token(rhe_tasks, tmp_path) -> None:
    study = write_test_study(tmp_path, "http://127.0.0.1:9/v1")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = tmp_path / "x.sqlite"
        result = CliRunner().invoke(
            _cli(),
            ["study", "serve", str(study), "--db", str(db), "--port", str(port), "--no-warm"],
        )
    assert result.exit_code != 0
    message = f"{result.output} {result.exception}"
    assert f"--port {port}" in message and "in use" in message
    assert "admin:" not in result.output and not db.exists()


def test_an_unset_key_variable_is_a_warning_per_condition(rhe_tasks, tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("STUDY_TEST_KEY", raising=False)
    study = load_study(str(write_test_study(tmp_path, "http://u:secretpass@127.0.0.1:9/v1")))
    lines = model_warnings(study)
    assert len(lines) == 2 and all("$STUDY_TEST_KEY is not set" in line for line in lines)
    monkeypatch.setenv("STUDY_TEST_KEY", "x" * 20)
    assert model_warnings(study) == []


def test_sandbox_workers_come_from_the_study(rhe_tasks, tmp_path) -> None:
    path = write_test_study(tmp_path, "http://127.0.0.1:9/v1")
    path.write_text(path.read_text() + "run: {cpu_s: 5, workers: 6}\n")
    study = load_study(str(path))
    assert study.run_workers == 6 and study.run_limits == {"cpu_s": 5}


def test_withdraw_deletes_a_participants_sessions_and_events(tmp_path) -> None:
    from seebench_study.store import StudyStore, read_events, read_sessions

    store = StudyStore(tmp_path / "w.sqlite")
    for number, code in enumerate(("keep", "gone")):
        session = f"s-0000000{number}-0000-0000-0000-000000000000"
        store.create_session(
            {
                "session": session,
                "study": "s",
                "participant": code,
                "condition": "c",
                "kind": "none",
                "model": None,
                "task_set": 0,
                "started": number,
            }
        )
        store.add_server_event(session, "model_error", None, {"service": "chat", "error": code})
    store.close()
    result = CliRunner().invoke(_cli(), ["study", "withdraw", str(tmp_path / "w.sqlite"), "gone"])
    assert result.exit_code == 0, result.output
    assert "deleted 1 session(s) and 1 event(s)" in result.output
    assert [s["participant"] for s in read_sessions(tmp_path / "w.sqlite")] == ["keep"]
    assert [e["data"]["error"] for e in read_events(tmp_path / "w.sqlite")] == ["keep"]
    assert b"gone" not in (tmp_path / "w.sqlite").read_bytes()
    again = CliRunner().invoke(_cli(), ["study", "withdraw", str(tmp_path / "w.sqlite"), "gone"])
    assert again.exit_code != 0 and "no session of participant 'gone'" in str(again.exception)
