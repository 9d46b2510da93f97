"""Keys in records (class 6 of round 2): a key in the ``base_url`` query string, a key pasted
as the value of ``api_key_env`` and the value of an option that is then rejected never reach
a result, a samples file, a run record (``OUTPUT/runs/*.yaml``) or the console; a key pasted
where a variable name belongs is an error that does not echo it."""

from __future__ import annotations

import pytest

from seebench.secrets import scrub
from tests.reliability.helpers import make_tasks
from tests.reliability.test_damaged_files import cli

KEY = "sk-proj-Q9x8W7v6U5t4S3r2P1o0"  # an OpenAI-shaped key
PLAIN = "qs9f8e7d6c5b4a3z2y1x"  # a value with no known shape


@pytest.fixture
def tasks_env(tmp_path, monkeypatch):
    task_dir = make_tasks(tmp_path, ["t0"])
    monkeypatch.setenv("SEEBENCH_PLUGINS", "tests.plugins.tmp_tasks_plugin")
    monkeypatch.setenv("SEEBENCH_TEST_TASK_DIR", str(task_dir))
    monkeypatch.setenv("SEEBENCH_HOME", str(tmp_path / "home"))
    return tmp_path / "out"


def _leaks(out, console: str, secret: str) -> list[str]:
    found = [
        str(p) for p in out.rglob("*") if p.is_file() and secret in p.read_text("utf-8", "replace")
    ]
    return found + (["console"] if secret in console else [])


def _openai(out, *options):
    args = ["eval", "--model", "openai:gpt-test", "--tasks", "tmp", "--output", str(out)]
    for option in ("max_retries=0", "timeout_s=2", *options):
        args += ["-o", option]
    return [*args, "--no-progress"]


@pytest.mark.parametrize("name", ["api_key", "key", "token", "access_token", "sig"])
def test_a_key_in_the_base_url_query_reaches_no_record(tasks_env, capsys, name):
    url = f"http://127.0.0.1:9/v1?{name}={PLAIN}&region=eu"
    _, out, err = cli(capsys, _openai(tasks_env, f"base_url={url}"))
    # nothing listens on port 9: every request fails, and the unit's result is written
    assert list(tasks_env.rglob("t0.json")) and list((tasks_env / "runs").iterdir())
    assert _leaks(tasks_env, out + err, PLAIN) == []


@pytest.mark.parametrize("value", [KEY, "hf_" + "a1B2c3D4e5F6g7H8i9J0k1L2", "Zx9" * 10])
def test_a_key_pasted_as_api_key_env_is_an_error_that_does_not_echo_it(tasks_env, capsys, value):
    code, out, err = cli(capsys, _openai(tasks_env, f"api_key_env={value}"))
    assert code == 1
    assert "api_key_env" in err and "not shown" in err
    assert _leaks(tasks_env, out + err, value) == []


@pytest.mark.parametrize(
    "option", [f"bogus={KEY}", f"api_key={PLAIN}", f"password={PLAIN}", f"auth=Bearer {PLAIN}"]
)
def test_the_value_of_a_rejected_option_reaches_no_record(tasks_env, capsys, option):
    args = ["eval", "--model", "majority", "--tasks", "tmp", "--output", str(tasks_env)]
    code, out, err = cli(capsys, [*args, "-o", option, "--no-progress"])
    assert code == 1 and "unknown option" in err
    secret = KEY if KEY in option else PLAIN
    assert _leaks(tasks_env, out + err, secret) == []


def test_names_stay_and_header_values_go():
    from seebench.secrets import variable_name_problem

    assert variable_name_problem("MY_PROVIDER_KEY") is None
    assert variable_name_problem(KEY) and KEY not in variable_name_problem(KEY)
    text = scrub('headers: {"Authorization": "Bearer abcdefgh12345678", "x-api-key": "zz99yy88xx"}')
    assert "abcdefgh12345678" not in text and "zz99yy88xx" not in text
    assert scrub("see http://h/x?page=2&q=cats") == "see http://h/x?page=2&q=cats"


PLAIN_VALUE = "hunter2-" + PLAIN  # no key-like name, place or shape


@pytest.mark.parametrize(
    ("model", "method"),
    [
        ("majority", "baseline"),
        ("majority", "keyword"),
        ("majority", "similarity"),
        ("openai:gpt-test", "zero-shot"),
        ("openai:gpt-test", "loglik"),
    ],
)
def test_an_unknown_option_with_a_plain_value_reaches_no_record(
    tasks_env, tmp_path, capsys, model, method
):
    events = tmp_path / "events.jsonl"
    args = ["eval", "--model", model, "--method", method, "--tasks", "tmp"]
    args += ["--output", str(tasks_env), "--events", str(events), "-o", f"bogus={PLAIN_VALUE}"]
    code, out, err = cli(capsys, [*args, "--no-progress"])
    assert code == 1 and "unknown option 'bogus'" in err
    assert not tasks_env.exists() or _leaks(tasks_env, "", PLAIN_VALUE) == []
    assert not events.exists() or PLAIN_VALUE not in events.read_text("utf-8", "replace")
    assert PLAIN_VALUE not in out + err


def test_every_registered_method_refuses_an_option_it_does_not_take():
    """An undeclared option would be accepted and written into every record: each built-in
    method (and the example plugin's) declares its options, for every kind of model."""
    from seebench.models import resolve_model
    from seebench.plugin_manager import get_registry

    registry = get_registry()
    accepting = []
    for spec in ("majority", "openai:gpt-test", "released:gpt4o"):
        model, _ = resolve_model(spec, registry)
        for name, entry in sorted(registry.methods.items()):
            method = entry.load()()
            schema_of = getattr(method, "option_schema", None)
            schema = schema_of(model) if callable(schema_of) else None
            if not entry.option_problems({"bogus": PLAIN_VALUE}, schema):
                accepting.append(f"{name} ({spec})")
    assert accepting == []
