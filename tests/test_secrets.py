"""Secrets: scrub() and the key-planting test (no planted secret reaches any written file)."""

from __future__ import annotations

import os
import subprocess
import sys

from seebench.secrets import configured_secrets, redact_url, register_secret, scrub
from tests.conftest import REPO_ROOT, make_binary_task

OPENAI_KEY = "sk-planted-openai-4f7a9c1e"
OWN_KEY = "own-planted-key-8b2d61"
URL_PASSWORD = "pw-planted-3c9e"


def test_scrub_replaces_configured_keys_and_url_credentials():
    secrets = configured_secrets({"OPENAI_API_KEY": OPENAI_KEY, "PATH": "/usr/bin:/bin"})
    assert secrets == [OPENAI_KEY]
    value = {
        "reply": f"the key is {OPENAI_KEY}",
        "n": 3,
        "urls": [f"http://user:{URL_PASSWORD}@host/v1", "https://example.org/x"],
    }
    assert scrub(value, secrets) == {
        "reply": "the key is ***",
        "n": 3,
        "urls": ["http://***@host/v1", "https://example.org/x"],
    }


def test_short_values_and_unrelated_variables_are_not_secrets():
    assert configured_secrets({"GITHUB_TOKEN": "1", "HOME": "/root/secret-looking-path"}) == []


def test_registered_values_are_scrubbed(monkeypatch):
    monkeypatch.setattr("seebench.secrets._registered", set())
    register_secret(OWN_KEY)
    assert scrub(f"Bearer {OWN_KEY}") == "Bearer ***"


def test_redact_url_drops_user_and_password():
    assert redact_url(f"http://user:{URL_PASSWORD}@host:8000/v1") == "http://host:8000/v1"
    assert redact_url("http://host/v1") == "http://host/v1"


def test_planted_keys_reach_no_file_and_no_log(tmp_path):
    tasks = tmp_path / "tasks"
    make_binary_task(tasks, "alpha", rows=12)
    make_binary_task(tasks, "fail_beta", rows=12)
    out, home = tmp_path / "out", tmp_path / "home"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO_ROOT),
        "SEEBENCH_HOME": str(home),
        "SEEBENCH_PLUGINS": "tests.plugins.tmp_tasks_plugin,tests.plugins.leaky_plugin",
        "SEEBENCH_TEST_TASK_DIR": str(tasks),
        "OPENAI_API_KEY": OPENAI_KEY,
        "MY_SERVICE_CREDENTIAL": OWN_KEY,
    }
    command = [
        sys.executable,
        "-m",
        "seebench.cli.main",
        "eval",
        "--model",
        "majority",
        "--method",
        "leaky",
        "--tasks",
        "tmp",
        "--output",
        str(out),
        "--no-progress",
        "-o",
        f"base_url=http://user:{URL_PASSWORD}@localhost:9/v1",
        "-o",
        "api_key_env=MY_SERVICE_CREDENTIAL",
    ]
    proc = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=120, cwd=REPO_ROOT
    )
    assert proc.returncode == 1, proc.stderr  # fail_beta failed, alpha is ok
    written = [p for root in (out, home) for p in root.rglob("*") if p.is_file()]
    assert any(p.name == "alpha.samples.jsonl" for p in written)
    assert (
        "key=*** own=*** url=http://***@localhost:9/v1"
        in (out / "majority/leaky/alpha.samples.jsonl").read_text()
    )
    texts = {str(p): p.read_bytes().decode("utf-8", "replace") for p in written}
    texts.update(stdout=proc.stdout, stderr=proc.stderr)
    for secret in (OPENAI_KEY, OWN_KEY, URL_PASSWORD):
        leaks = [name for name, text in texts.items() if secret in text]
        assert leaks == [], f"{secret} written to {leaks}"
