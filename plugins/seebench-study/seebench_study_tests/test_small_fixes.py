"""Small participant-facing fixes: tracebacks without the sandbox's caret lines, instructions
per condition kind, per-condition survey items, model call defaults by kind, FIM formats."""

from __future__ import annotations

import pytest
from seebench_study.assistant import Assistant
from seebench_study.completions import completion_request, cut_middle
from seebench_study.definition import Condition, load_study
from seebench_study.execute import participant_traceback

from seebench_study_tests.conftest import write_test_study


def test_a_traceback_loses_the_harness_frames_and_their_carets() -> None:
    stderr = (
        "Traceback (most recent call last):\n"
        '  File "/opt/seebench/harness.py", line 12, in run_main\n'
        "    exec(code, namespace)\n"
        "    ^^^^^^^^^^^^^^^^^^^^^\n"
        '  File "/sandbox/run/main.py", line 3, in <module>\n'
        "    print(1 / 0)\n"
        "          ~~^~~\n"
        "ZeroDivisionError: division by zero\n"
    )
    shown = participant_traceback(stderr)
    assert "/opt/seebench" not in shown and "^^^^^^^^^^^^^^^^^^^^^" not in shown
    assert 'File "main.py", line 3' in shown and "~~^~~" in shown  # the participant's own


def test_instructions_by_kind_and_items_by_condition(rhe_tasks, tmp_path) -> None:
    path = write_test_study(tmp_path, "http://127.0.0.1:9/v1", conditions=("ac", "chat", "none"))
    text = path.read_text()
    start = text.index("instructions:")
    end = text.index("\n", start)
    text = (
        text[:start]
        + 'instructions: {all: "Solve the tasks.", chat: "Ask the assistant (Enter sends)."}'
        + text[end:]
    )
    path.write_text(text)
    study = load_study(str(path))
    assert study.instructions_for("chat") == "Solve the tasks.\n\nAsk the assistant (Enter sends)."
    assert study.instructions_for("none") == "Solve the tasks."
    post = {c.id: [i["id"] for i in study.survey_items("post", c)] for c in study.conditions}
    assert post == {
        "ac": ["helpfulness", "comments"],
        "chat": ["helpfulness", "comments"],
        "none": ["comments"],
    }


def test_model_call_defaults_by_kind_and_the_condition_wins() -> None:
    suggest = Assistant(Condition("a", "autocomplete", "openai:x"))
    chat = Assistant(Condition("c", "chat", "openai:x", {"timeout_s": 5}))
    assert suggest.options["timeout_s"] == 10.0 and suggest.options["max_retries"] == 0
    assert chat.options["timeout_s"] == 5 and chat.options["cache"] is False


@pytest.mark.parametrize(
    ("fmt", "prompt"),
    [
        ("codellama", "<PRE> a <SUF>b <MID>"),
        ("starcoder", "<fim_prefix>a<fim_suffix>b<fim_middle>"),
        ("qwen", "<|fim_prefix|>a<|fim_suffix|>b<|fim_middle|>"),
        ("prefix", "a"),
    ],
)
def test_fim_prompts(fmt: str, prompt: str) -> None:
    body = completion_request(fmt, "a", "b", model="m", max_tokens=9, temperature=0.0)
    assert body["prompt"] == prompt and body["max_tokens"] == 9


def test_the_suffix_format_sends_prefix_and_suffix_apart_and_middles_are_cut() -> None:
    body = completion_request("suffix", "a", "b", model="m", max_tokens=9, temperature=0.0)
    assert (body["prompt"], body["suffix"]) == ("a", "b") and "stop" not in body
    assert cut_middle("x = 1<EOT>rest", "codellama") == "x = 1"
    with pytest.raises(Exception, match="completion format 'fim'"):
        completion_request("fim", "a", "b", model="m", max_tokens=9, temperature=0.0)
