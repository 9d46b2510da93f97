"""The OpenAI-compatible backend against a fake server with injected faults: the run completes,
every sample is answered or invalid with a reason, retries show in the result."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("aiohttp", reason="the openai backend needs the api extra")

from tests.methods.prompting.conftest import evaluate, make_prompt_task, read_unit
from tests.methods.prompting.fake_openai import FakeOpenAI

SECRET = "sk-test-DO-NOT-LEAK-1234"
FAST_RETRIES = [
    "retry_base_s=0.01",
    "retry_max_s=0.05",
    "max_retries=2",
    "timeout_s=0.3",
    "concurrency=2",
    "price_input=2.5",
    "price_output=10",
]

# (marker, valid?, retried attempts, error substring)
CASES = [
    ("expect=bug", True, 0, None),
    ("[429-once] expect=bug", True, 1, None),
    ("[500-twice] expect=bug", True, 2, None),
    ("[slow-once] expect=bug", True, 1, None),
    ("[badjson-once] expect=bug", True, 1, None),
    ("[500-always] expect=bug", False, 2, "last: HTTP 500"),
    ("[slow-always] expect=bug", False, 2, "last: timeout"),
    ("[badjson-always] expect=bug", False, 2, "last: malformed response"),
    ("[nolabel]", False, 0, "no label in reply"),
    ("[401-echo]", False, 0, "HTTP 401"),
    ("expect=defect", True, 0, None),  # a synonym of bug
]


def _options(*extra):
    from seebench.cli.eval import _parse_options

    return _parse_options(tuple(FAST_RETRIES) + extra)


@pytest.fixture
def fault_task(task_env):
    make_prompt_task(
        task_env[1], "faults", "binary", [f"issue {i} {m}" for i, (m, *_) in enumerate(CASES)]
    )
    return task_env


@pytest.fixture
def server(monkeypatch):
    with FakeOpenAI(slow_s=1.0) as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", SECRET)
        yield fake


def test_faults_are_retried_or_reported_and_every_sample_is_accounted_for(fault_task, server):
    [outcome] = evaluate(fault_task, "openai:fake-model", "faults", method_options=_options())
    assert outcome.status == "ok", outcome.reason
    result, samples = read_unit(fault_task[2], "openai-fake-model", "zero-shot", "faults")
    assert result["n"] == len(samples) == len(CASES)
    invalid = [c for c in CASES if not c[1]]
    assert result["invalid"] == len(invalid)
    assert result["invalid_rate"] == pytest.approx(len(invalid) / len(CASES))
    for (marker, valid, retried, error), record in zip(CASES, samples, strict=True):
        if valid:
            assert record["prediction"] == "bug" and "error" not in record, marker
            assert record["confidence"] == pytest.approx(math.exp(-0.25))
        else:
            assert record["prediction"] is None and error in record["error"], (marker, record)
        assert len(record["extra"].get("retries", [])) == retried, marker
    info = result["info"]
    assert info["retries"] == sum(c[2] for c in CASES)
    assert info["retry_reasons"] == {
        "HTTP 429": 1,
        "HTTP 500": 4,
        "malformed response": 3,
        "timeout": 3,
    }
    assert info["failed_requests"] == 4
    assert info["invalid_reasons"] == {"request failed": 4, "no label in reply": 1}
    answered = len(CASES) - 4
    assert info["usage"] == {
        "prompt_tokens": 100 * answered,
        "completion_tokens": 3 * answered,
        "total_tokens": 103 * answered,
    }
    assert info["cost_usd"] == pytest.approx((2.5 * 100 + 10 * 3) * answered / 1e6)
    assert 1 <= server.max_in_flight <= 2  # concurrency=2 bounds the requests in flight


def test_api_key_is_sent_but_never_written(fault_task, server):
    evaluate(fault_task, "openai:fake-model", "faults", method_options=_options())
    assert server.authorization == {f"Bearer {SECRET}"}
    folder = fault_task[2] / "openai-fake-model" / "zero-shot"
    for path in folder.iterdir():
        assert SECRET not in path.read_text(), path.name
    result, samples = read_unit(fault_task[2], "openai-fake-model", "zero-shot", "faults")
    echoed = next(s for s in samples if "HTTP 401" in (s.get("error") or ""))
    assert "***" in echoed["error"]


def test_requests_carry_messages_and_generation_parameters(fault_task, server):
    evaluate(fault_task, "openai:fake-model", "faults", method_options=_options("temperature=0.2"))
    body = server.bodies[0]
    assert body["model"] == "fake-model" and body["temperature"] == 0.2
    assert body["max_tokens"] == 8 and body["logprobs"] is True
    assert body["messages"][-1]["role"] == "user"
    assert body["messages"][-1]["content"].rstrip().endswith("Label:")


def test_rerun_answers_from_cache_but_retries_failures(fault_task, server):
    evaluate(fault_task, "openai:fake-model", "faults", method_options=_options())
    first = server.requests
    evaluate(
        fault_task,
        "openai:fake-model",
        "faults",
        output=fault_task[2] / "again",
        method_options=_options(),
    )
    result, samples = read_unit(fault_task[2] / "again", "openai-fake-model", "zero-shot", "faults")
    failed = 4  # transport failures are not cached; they are tried again
    assert result["info"]["cache"] == {
        "hits": len(CASES) - failed,
        "misses": failed,
        "enabled": True,
    }
    assert server.requests - first == 3 * 3 + 1  # 3 attempts each; a 401 is not retried
    assert sum(s["extra"]["cached"] for s in samples) == len(CASES) - failed
    assert result["invalid"] == 5


@pytest.mark.parametrize(
    ("model", "extra"), [("openai:fake-model", ("temperature=0.7",)), ("openai:other-model", ())]
)
def test_other_model_or_temperature_never_hits_the_cache(fault_task, server, model, extra):
    evaluate(fault_task, "openai:fake-model", "faults", method_options=_options())
    evaluate(
        fault_task, model, "faults", output=fault_task[2] / "other", method_options=_options(*extra)
    )
    model_id = model.replace(":", "-")
    result, _ = read_unit(fault_task[2] / "other", model_id, "zero-shot", "faults")
    assert result["info"]["cache"]["hits"] == 0


def test_unreachable_server_fails_every_sample_with_a_reason(fault_task, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")  # discard port: refused
    [outcome] = evaluate(fault_task, "openai:fake-model", "faults", method_options=_options())
    assert outcome.status == "ok"
    result, samples = read_unit(fault_task[2], "openai-fake-model", "zero-shot", "faults")
    assert result["invalid_rate"] == 1.0
    assert all("connection error" in s["error"] for s in samples)


def test_a_reply_echoing_the_key_is_scrubbed_everywhere_and_bad_usage_costs_only_accounting(
    task_env, server
):
    from seebench.data.cache import seebench_home

    make_prompt_task(
        task_env[1],
        "echoes",
        "binary",
        ["issue 0 [echo-key] expect=bug", "issue 1 [bad-usage] expect=bug", "issue 2 expect=bug"],
    )
    evaluate(task_env, "openai:fake-model", "echoes", method_options=_options())
    result, samples = read_unit(task_env[2], "openai-fake-model", "zero-shot", "echoes")
    assert result["status"] == "ok" and len(samples) == 3
    assert all(s["prediction"] == "bug" for s in samples)  # the malformed usage lost no answer
    written = [p for root in (task_env[2], seebench_home()) for p in root.rglob("*") if p.is_file()]
    assert written and not [p for p in written if SECRET in p.read_text(errors="replace")]
    echoed = next(s for s in samples if "called with" in (s.get("raw") or ""))
    assert "***" in echoed["raw"]
